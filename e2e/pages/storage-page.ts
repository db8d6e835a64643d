import type { Locator, Page } from '@playwright/test';

/** The storage section as a user sees it: accounts, buckets, and a bucket's folder browser. */
export class StoragePage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(hash = '#/storage'): Promise<void> {
    await this.page.goto(`${this.baseUrl}/${hash}`);
  }

  address(): Locator {
    return this.page.getByRole('textbox', { name: 'Address' });
  }

  table(): Locator {
    return this.page.getByTestId('object-table');
  }

  /** A row of the object table by its key. */
  row(key: string): Locator {
    return this.table().locator(`tr[data-key="${key}"]`);
  }

  firstRowKey(): Promise<string | null> {
    return this.table().locator('tbody tr[data-row-index="0"]').getAttribute('data-key');
  }

  sortBy(column: 'Name' | 'Size' | 'Type' | 'Uploaded'): Promise<void> {
    return this.table().getByRole('button', { name: column, exact: true }).click();
  }

  indexText(): Locator {
    return this.page.getByTestId('index-text');
  }

  dialog(): Locator {
    return this.page.getByRole('dialog');
  }

  toolbarButton(name: 'New folder' | 'Rename' | 'Move' | 'Copy' | RegExp): Locator {
    return this.page.getByTestId('storage-browser').getByRole('button', { name });
  }

  batch(title: string): Locator {
    return this.page.getByTestId('batch-panel').locator('[data-batch-state]').filter({ hasText: title });
  }
}
