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

  /** The add form's relay picker: this console's own relay or a remote one. */
  relayPicker(): Locator {
    return this.dialog().getByRole('combobox', { name: 'Relay', exact: true });
  }

  nameField(): Locator {
    return this.dialog().getByRole('textbox', { name: 'Name' });
  }

  /** The form's sources are "Source 1", "Source 2", … in the order they are saved. */
  sourceField(index = 0): Locator {
    return this.dialog().getByRole('textbox', { name: `Source ${index + 1}`, exact: true });
  }

  sourceAction(action: 'Move' | 'Remove' | 'Probe', index: number): Locator {
    return this.dialog().getByRole('button', { name: `${action} Source ${index + 1}`, exact: true });
  }

  async sourceValues(): Promise<string[]> {
    return this.dialog()
      .getByRole('list', { name: 'Sources' })
      .getByRole('textbox')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  }

  probeResult(): Locator {
    return this.dialog().getByTestId('probe-result');
  }

  async probe(source: string, index = 0): Promise<void> {
    await this.sourceField(index).fill(source);
    await this.sourceAction('Probe', index).click();
  }

  link(id: string): Locator {
    return this.page.getByTestId('stream-links').locator(`tr[data-link="${id}"]`);
  }

  async linkUrl(id: string): Promise<string> {
    return (await this.link(id).locator('code').textContent()) ?? '';
  }
}
