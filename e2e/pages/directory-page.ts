import type { Locator, Page } from '@playwright/test';

/** The Directory section as a user sees it: packages and policies, the policy editor, lists. */
export class DirectoryPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(hash = '#/directory'): Promise<void> {
    await this.page.goto(`${this.baseUrl}/${hash}`);
  }

  /** A tab of the policy editor (Basics, Approval, Requestor information, …, Review). */
  editorTab(name: string): Locator {
    // A tab's name may carry its problem count ("Basics 1 problems").
    return this.page.getByRole('tablist', { name: 'Policy settings' }).getByRole('tab', { name: new RegExp(`^${name}( \\d+ problems?)?$`) });
  }

  /** Waits for the editor to show another policy than `previous` and answers its id. */
  async openedPolicyId(previous?: string): Promise<string> {
    await this.page.waitForURL((url) => /^#\/directory\/policies\/[0-9a-f-]{36}$/.test(url.hash) && !url.hash.endsWith(previous ?? '-'));
    return new URL(this.page.url()).hash.split('/').pop()!;
  }

  stage(number: number): Locator {
    return this.page.getByRole('group', { name: `Approval stage ${number}` });
  }

  question(number: number): Locator {
    return this.page.getByRole('group', { name: `Question ${number}`, exact: true });
  }

  /** The Review tab's changed property paths, in order. */
  async reviewedPaths(): Promise<string[]> {
    return this.page.getByTestId('review-diff').locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-path') ?? ''));
  }

  save(): Promise<void> {
    return this.page.getByRole('button', { name: /^(Save|Create) policy$/ }).click();
  }
}
