import type { Locator, Page } from '@playwright/test';

/** The streams section as a user sees it: the list, one stream's tabs, and the add/edit form. */
export class StreamsPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(hash = '#/streams'): Promise<void> {
    await this.page.goto(`${this.baseUrl}/${hash}`);
  }

  row(stream: string): Locator {
    return this.page.getByTestId('streams-table').locator(`tr[data-stream="${stream}"]`);
  }

  dialog(): Locator {
    return this.page.getByRole('dialog');
  }

  nameField(): Locator {
    return this.dialog().getByRole('textbox', { name: 'Name' });
  }

  sourceField(): Locator {
    return this.dialog().getByRole('textbox', { name: 'Source' });
  }

  probeResult(): Locator {
    return this.dialog().getByTestId('probe-result');
  }

  async probe(source: string): Promise<void> {
    await this.sourceField().fill(source);
    await this.dialog().getByRole('button', { name: 'Probe source' }).click();
  }

  link(id: string): Locator {
    return this.page.getByTestId('stream-links').locator(`tr[data-link="${id}"]`);
  }

  async linkUrl(id: string): Promise<string> {
    return (await this.link(id).locator('code').textContent()) ?? '';
  }
}
