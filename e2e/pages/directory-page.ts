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
    return this.page
      .getByRole('tablist', { name: 'Policy settings' })
      .getByRole('tab', { name: new RegExp(`^${name}( \\d+ problems?)?$`) });
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
    return this.page
      .getByTestId('review-diff')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-path') ?? ''));
  }

  /** The chosen administrative unit's table of scoped role members. */
  scopedMembers(): Locator {
    return this.page.getByTestId('scoped-members');
  }

  /** The member row giving `person` the role `role`. */
  memberRow(person: string, role: string): Locator {
    return this.scopedMembers().getByRole('row').filter({ hasText: person }).filter({ hasText: role });
  }

  addMemberDialog(): Locator {
    return this.page.getByRole('dialog', { name: /^Add a role member to / });
  }

  removeMemberDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Remove this role member?' });
  }

  /** Opens the Role list of the add dialog and picks a role by its name. */
  async chooseRole(name: string): Promise<void> {
    await this.addMemberDialog().getByRole('combobox', { name: 'Role' }).click();
    await this.page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  }

  /** Types the start of a name in the Person picker and picks the option of that person. */
  async choosePerson(typed: string, name: string): Promise<void> {
    await this.addMemberDialog().getByRole('combobox', { name: 'Person' }).fill(typed);
    await this.page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  }

  save(): Promise<void> {
    return this.page.getByRole('button', { name: /^(Save|Create) policy$/ }).click();
  }
}
