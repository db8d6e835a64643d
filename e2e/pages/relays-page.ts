import type { Locator, Page } from '@playwright/test';

/** Settings → Remote relays as a user sees it: the list with each relay's state, and the add form. */
export class RelaysPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/settings`);
  }

  panel(): Locator {
    return this.page.getByRole('region', { name: 'Remote relays' });
  }

  row(relay: string): Locator {
    return this.panel().locator(`tr[data-relay="${relay}"]`);
  }

  /** A relay's state badge: "reachable", "checking", or "unreachable since …: reason". */
  state(relay: string): Locator {
    return this.row(relay).getByText(/^(reachable|checking|unreachable since .*)$/);
  }

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Add a remote relay' });
  }

  field(name: 'Name' | 'Address' | 'Username'): Locator {
    return this.dialog().getByRole('textbox', { name, exact: true });
  }

  testResult(): Locator {
    return this.dialog().getByTestId('relay-test-result');
  }

  /** Opens Add relay and types a name and an address. */
  async fill(name: string, url: string): Promise<void> {
    await this.panel().getByRole('button', { name: 'Add relay' }).click();
    await this.field('Name').fill(name);
    await this.field('Address').fill(url);
  }

  async submit(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Add relay' }).click();
  }
}
