import { expect, type Locator, type Page } from '@playwright/test';

/** The transfer queue as a user sees it: a row per file with its bar, state and buttons. */
export class TransfersPage {
  constructor(readonly page: Page) {}

  /** A transfer by the name it shows; `kind` tells an upload from a download of the same file. */
  row(name: string, kind?: 'upload' | 'download'): Locator {
    const row = this.page.getByRole('list', { name: 'Transfers' }).getByRole('listitem', { name, exact: true });
    return kind ? row.and(this.page.locator(`[data-kind="${kind}"]`)) : row;
  }

  /** The row's progress in percent, as its bar announces it. */
  async percent(name: string): Promise<number> {
    return Number(await this.row(name).getByRole('progressbar').getAttribute('aria-valuenow'));
  }

  async expectState(name: string, state: string, kind?: 'upload' | 'download', timeout = 30_000): Promise<void> {
    await expect(this.row(name, kind)).toHaveAttribute('data-state', state, { timeout });
  }

  button(name: string, action: 'Pause' | 'Resume' | 'Cancel' | 'Retry'): Locator {
    return this.row(name).getByRole('button', { name: `${action} ${name}` });
  }

  /** "Choose the file again" of an upload whose file the page lost, through the system's picker. */
  async chooseAgain(name: string, path: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.row(name)
      .getByRole('button', { name: `Choose the file again for ${name}` })
      .click();
    await (await chooser).setFiles(path);
  }

  totals(): Locator {
    return this.page.getByTestId('transfer-totals');
  }
}
