import { expect, type Locator, type Page } from '@playwright/test';

/** The config editor as a user sees it: the text, its problems, save and the diff before it. */
export class ConfigPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/config`);
  }

  editor(): Locator {
    return this.page.getByRole('textbox', { name: 'Config file (YAML)' });
  }

  /** Whose config the editor holds: this console's own, or a remote relay's. */
  relayPicker(): Locator {
    return this.page.getByRole('combobox', { name: 'Relay', exact: true });
  }

  /** Replaces the whole text, as a paste over a select-all does. */
  async replaceAll(text: string): Promise<void> {
    await this.editor().click();
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.insertText(text);
  }

  line(text: string | RegExp): Locator {
    return this.page.getByTestId('config-editor').locator('.cm-line', { hasText: text });
  }

  /** Puts the cursor at the end of the file and pastes text there (no completion, no auto-indent). */
  async append(text: string): Promise<void> {
    await this.editor().click();
    await this.page.keyboard.press('Control+End');
    await this.page.keyboard.insertText(text);
  }

  problems(): Locator {
    return this.page.getByTestId('problems');
  }

  completions(): Locator {
    return this.page.locator('.cm-tooltip-autocomplete');
  }

  /**
   * Picks a completion with Enter once it is the selected option. CodeMirror ignores an accept
   * within 75 ms of the list changing, so that a fast Enter does not pick by accident; a person
   * is never that fast, a test is, so it waits out that window first.
   */
  async accept(label: string): Promise<void> {
    await expect(this.completions().locator('[aria-selected="true"]')).toContainText(label);
    await this.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 150)));
    await this.page.keyboard.press('Enter');
  }

  button(name: 'Save…' | 'Save and restart…' | 'Revert'): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  dialog(): Locator {
    return this.page.getByRole('dialog');
  }
}
