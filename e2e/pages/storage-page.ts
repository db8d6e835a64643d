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

  /** The header checkbox: selects every object of the folder (or clears the selection). */
  selectAllCheckbox(): Locator {
    return this.table().getByRole('checkbox', { name: /^(Select all in this folder|Clear the selection)$/ });
  }

  selectionBar(): Locator {
    return this.page.getByRole('status', { name: 'Selection' });
  }

  /** "A file with this name is already there": overwrite, skip or keep both. */
  conflictDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'A file with this name is already there' });
  }

  /** Chooses files through Upload › Files…, as a person does with the system's picker. */
  async uploadFiles(paths: string[]): Promise<void> {
    await this.page.getByRole('button', { name: 'Upload', exact: true }).click();
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByRole('menuitem', { name: 'Files…' }).click();
    await (await chooser).setFiles(paths);
  }
}
