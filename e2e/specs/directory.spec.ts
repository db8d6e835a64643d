import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectAccessible } from '../fixtures/accessibility';
import { readDemoAccount, type DemoAccount } from '../fixtures/demo-account';
import { startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { DirectoryPage } from '../pages/directory-page';
import type { Page } from '@playwright/test';
import { CONSOLE_SOCKET_PATH, CONSOLE_SOCKET_PROTOCOL, SESSION_TOKEN_META } from '../../src-shared/contract/wire';
import { graphDocsUpdateBody } from '../../src-shared/directory/policy-fixtures';

// The Directory section against its own console and the emulator's demo tenant. What the
// console saved is read back from the emulator over HTTP, as another Graph client would.
let server: HeadlessConsole;
/** No token of this console's is older: the demo tenant's tokens live 60 minutes from then at most. */
let consoleStartedAt = 0;

const EM = '/v1.0/identityGovernance/entitlementManagement';
const POLICY = '4540a08f-8ab5-43f6-a923-015275799197';
const PACKAGE = '56ff43fd-6b05-48e2-a7a0-0d8e7ad1f3a4';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Graph JSON read back in assertions

const demoAccount = () => readDemoAccount(server.dataDir);

/** One call of the console's own contract over its WebSocket, from the page (which holds the session token), answering the result. */
function consoleCall(page: Page, service: string, method: string, input: unknown): Promise<{ ok: boolean; value?: Json; error?: Json }> {
  return page.evaluate(
    ({ service, method, input, path, protocol, meta }) =>
      new Promise((resolve, reject) => {
        const token = document.querySelector<HTMLMetaElement>(`meta[name="${meta}"]`)?.content ?? '';
        const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`, [
          protocol,
          `token.${token}`,
        ]);
        socket.onerror = () => reject(new Error('the console socket failed'));
        socket.onopen = () => socket.send(JSON.stringify({ type: 'call', id: 1, service, method, input }));
        socket.onmessage = (message) => {
          const frame = JSON.parse(String(message.data)) as { type: string; id?: number; result?: unknown };
          if (frame.type !== 'result' || frame.id !== 1) return;
          socket.close();
          resolve(frame.result as { ok: boolean });
        };
      }),
    { service, method, input, path: CONSOLE_SOCKET_PATH, protocol: CONSOLE_SOCKET_PROTOCOL, meta: SESSION_TOKEN_META },
  );
}

/** Graph over HTTP as the tenant's app (client credentials), answering status and JSON. */
async function graphAs(demo: DemoAccount) {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: demo.client_id,
    client_secret: demo.client_secret,
    scope: 'https://graph.microsoft.com/.default',
  });
  const token = (
    (await (await fetch(`${demo.url}/${demo.tenant}/oauth2/v2.0/token`, { method: 'POST', body: form })).json()) as { access_token: string }
  ).access_token;
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${demo.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: response.status === 204 ? {} : ((await response.json()) as Json) };
  };
}

test.beforeAll(async () => {
  consoleStartedAt = Date.now();
  server = await startHeadlessConsole();
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('adds an approval stage and a multiple-choice question, reviews exactly what changes, saves, and the service stores every field', async ({
  page,
}) => {
  const directory = new DirectoryPage(page, server.url);
  await directory.open();
  await expect(page.getByTestId('package-details')).toContainText('Marketing campaign resources');
  await expectAccessible(page, 'access packages');
  await page.getByRole('link', { name: 'Employees, with manager approval', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Employees, with manager approval');

  await page.getByRole('textbox', { name: 'Description' }).fill('Members request; their manager, then their manager’s manager approve.');

  await directory.editorTab('Approval').click();
  await page.getByRole('button', { name: 'Add approval stage' }).click();
  const stage = directory.stage(2);
  await expect(stage).toContainText('None.');
  await stage.getByRole('button', { name: 'Add to Stage 2 approvers' }).click();
  await page.getByRole('menuitem', { name: "Requestor's manager" }).click();
  const level = stage.getByRole('textbox', { name: 'Stage 2 approvers 1: manager level' });
  await level.fill('2');
  await stage.getByRole('textbox', { name: 'Stage 2: deny if not decided within' }).fill('3');
  await stage.getByRole('switch', { name: 'Approvers must give a justification' }).click();
  await expectAccessible(page, 'policy editor, approval');

  await directory.editorTab('Requestor information').click();
  await page.getByRole('button', { name: 'Add question' }).click();
  const question = directory.question(2);
  await question.getByText('Multiple choice', { exact: true }).click();
  await question.getByRole('textbox', { name: 'Question 2 text' }).fill('Which region do you work in?');
  await question.getByRole('button', { name: 'Add a translation of question 2 text' }).click();
  await question.getByRole('textbox', { name: 'Question 2 text translation 1: language' }).fill('fr-FR');
  await question.getByRole('textbox', { name: 'Question 2 text translation 1: text' }).fill('Dans quelle région travaillez-vous ?');
  await question.getByRole('switch', { name: 'Requestors may pick more than one' }).click();
  await question.getByRole('textbox', { name: 'Question 2 choice 1: shown text' }).fill('Europe');
  await question.getByRole('textbox', { name: 'Question 2 choice 1: stored value' }).fill('eu');
  await question.getByRole('button', { name: 'Add choice' }).click();
  await question.getByRole('textbox', { name: 'Question 2 choice 2: shown text' }).fill('Asia and Pacific');
  await question.getByRole('textbox', { name: 'Question 2 choice 2: stored value' }).fill('apac');
  await expectAccessible(page, 'policy editor, requestor information');

  await directory.editorTab('Review').click();
  expect(await directory.reviewedPaths()).toEqual(['description', 'requestApprovalSettings.stages[1]', 'questions[1]']);
  await expect(page.getByText(`PUT /identityGovernance/entitlementManagement/assignmentPolicies/${POLICY}`)).toBeVisible();
  await expectAccessible(page, 'policy editor, review');
  await page.screenshot({ path: test.info().outputPath('policy-review.png'), fullPage: true });

  await directory.save();
  await expect(page.getByText('Policy saved')).toBeVisible();
  await expect(page.getByTestId('review-no-changes')).toBeVisible();

  const graph = await graphAs(await demoAccount());
  const stored = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  expect(stored.description).toBe('Members request; their manager, then their manager’s manager approve.');
  expect(stored.requestApprovalSettings.stages).toHaveLength(2);
  expect(stored.requestApprovalSettings.stages[1]).toEqual({
    durationBeforeAutomaticDenial: 'P3D',
    isApproverJustificationRequired: true,
    isEscalationEnabled: false,
    durationBeforeEscalation: null,
    primaryApprovers: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 2 }],
    fallbackPrimaryApprovers: [],
    escalationApprovers: [],
    fallbackEscalationApprovers: [],
  });
  expect(stored.questions).toHaveLength(2);
  expect(stored.questions[1]).toMatchObject({
    '@odata.type': '#microsoft.graph.accessPackageMultipleChoiceQuestion',
    text: 'Which region do you work in?',
    isRequired: true,
    isAnswerEditable: true,
    isMultipleSelectionAllowed: true,
    localizations: [{ languageCode: 'fr-FR', text: 'Dans quelle région travaillez-vous ?' }],
    choices: [
      { actualValue: 'eu', text: 'Europe', localizations: [] },
      { actualValue: 'apac', text: 'Asia and Pacific', localizations: [] },
    ],
  });
  // The first stage and question are as they were.
  expect(stored.requestApprovalSettings.stages[0].primaryApprovers).toEqual([
    { '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 },
  ]);
  expect(stored.questions[0].text).toBe('Which campaign are you working on?');
});

test('the form refuses what the shared rules refuse, and a field Graph rejects shows Graph’s message at that field', async ({ page }) => {
  const directory = new DirectoryPage(page, server.url);
  const graph = await graphAs(await demoAccount());
  const before = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  await directory.open(`#/directory/policies/${POLICY}`);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(String(before.displayName));

  // Checked in the form: nothing is sent.
  await page.getByRole('textbox', { name: 'Name' }).fill('');
  await directory.save();
  await expect(page.getByTestId('policy-problems')).toContainText('Basics: Must not be empty');
  await expect(directory.editorTab('Basics')).toHaveAccessibleName('Basics 1 problem');
  await page.getByRole('textbox', { name: 'Name' }).fill(String(before.displayName));

  // Checked by Graph: a user id that is not in the directory.
  await directory.editorTab('Approval').click();
  const stage = directory.stage(1);
  await stage.getByRole('button', { name: 'Add to Stage 1 approvers' }).click();
  await page.getByRole('menuitem', { name: 'Specific user' }).click();
  const ghost = '0f0f0f0f-0000-4000-a000-00000000dead';
  const user = stage.getByRole('group', { name: 'Stage 1 approvers' }).getByRole('combobox', { name: 'User', exact: true });
  await user.fill(ghost);
  await expect(stage.getByText('No user with this id was found')).toBeVisible();
  await directory.editorTab('Basics').click();
  await directory.save();
  // Graph's words, at the field, in the tab that holds it.
  await expect(directory.editorTab('Approval')).toHaveAttribute('aria-selected', 'true');
  await expect(
    stage.getByText(
      `The model is invalid. requestApprovalSettings.stages.0.primaryApprovers.1.userId: no user '${ghost}' in the directory`,
    ),
  ).toBeVisible();
  await expect(user).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'policy editor, a field Graph refused');
  await page.screenshot({ path: test.info().outputPath('policy-graph-error.png'), fullPage: true });
  const after = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  expect(after.modifiedDateTime).toBe(before.modifiedDateTime);
  expect(after.requestApprovalSettings.stages[0].primaryApprovers).toEqual(before.requestApprovalSettings.stages[0].primaryApprovers);

  // Picking a real user through the search instead: the save goes through.
  const demo = await demoAccount();
  await user.fill('Demo');
  await page.getByRole('option', { name: new RegExp(demo.user.userPrincipalName) }).click();
  // The field shows who was picked, by name; the form holds (and Graph stores) the id.
  await expect(user).toHaveValue(`Demo User (${demo.user.userPrincipalName})`);
  await expect(stage.getByRole('group', { name: 'Stage 1 approvers' }).getByText(`Object id ${demo.user.id}`)).toBeVisible();
  await directory.save();
  await expect(page.getByText('Policy saved')).toBeVisible();
  const saved = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  expect(saved.requestApprovalSettings.stages[0].primaryApprovers[1]).toEqual({
    '@odata.type': '#microsoft.graph.singleUser',
    userId: demo.user.id,
    description: null,
  });
});

test('refuses an access length out of range at its field, in a person’s words, and saves nothing', async ({ page }) => {
  // Fails on the old code: 99999 was clamped to 9999 and saved with "Policy saved"; 0 emptied the field.
  const directory = new DirectoryPage(page, server.url);
  const graph = await graphAs(await demoAccount());
  const before = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  expect(before.expiration).toMatchObject({ type: 'afterDuration', duration: 'P365D' });
  await directory.open(`#/directory/policies/${POLICY}`);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(String(before.displayName));
  await directory.editorTab('Lifecycle').click();
  const lasts = page.getByRole('textbox', { name: 'Access lasts' });
  await expect(lasts).toHaveValue('365');

  await lasts.fill('99999');
  // Said while the person is still in the field, before anything else is clicked.
  await expect(page.getByText('Access can last at most 3,650 days', { exact: true })).toBeVisible();
  await expect(lasts).toHaveAttribute('aria-invalid', 'true');
  await directory.save();
  // Kept as typed, not bent to another number, and not sent.
  await expect(lasts).toHaveValue('99999');
  await expect(page.getByTestId('policy-problems')).toContainText('Lifecycle: Access can last at most 3,650 days');
  await expect(page.getByText('Policy saved')).toBeHidden();
  await page.screenshot({ path: '/tmp/directory-duration-too-long.png', fullPage: true });

  await lasts.fill('0');
  await expect(lasts).toHaveValue('0');
  await expect(page.getByText('Enter how many days access lasts (1 or more)', { exact: true })).toBeVisible();
  await lasts.fill('');
  await expect(page.getByText('Enter how many days access lasts (1 or more)', { exact: true })).toBeVisible();
  await directory.save();
  await expect(page.getByTestId('policy-problems')).toContainText('Lifecycle: Enter how many days access lasts (1 or more)');
  // No message at the field or in the list speaks Graph's language.
  for (const where of [page.getByRole('tabpanel', { name: 'Lifecycle' }), page.getByTestId('policy-problems')])
    await expect(where).not.toContainText(/afterDuration|P\d+D|expiration\.duration/);
  await expectAccessible(page, 'policy editor, an access length out of range');
  await page.screenshot({ path: '/tmp/directory-duration-zero.png', fullPage: true });

  const after = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  expect(after.modifiedDateTime).toBe(before.modifiedDateTime);
  expect(after.expiration).toEqual(before.expiration);

  // In range again, it saves.
  await lasts.fill('3650');
  await expect(page.getByText('Access can last at most 3,650 days', { exact: true })).toBeHidden();
  await directory.save();
  await expect(page.getByText('Policy saved')).toBeVisible();
  expect((await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body.expiration).toMatchObject({
    type: 'afterDuration',
    duration: 'P3650D',
  });
  // Put back for the tests that follow.
  await lasts.fill('365');
  await directory.save();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  expect((await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body.expiration).toMatchObject({ duration: 'P365D' });
});

test('asks before unsaved edits are left behind: Keep editing stays with the edit, Discard leaves', async ({ page }) => {
  // Fails on the old code: leaving the editor dropped the edits without a question.
  const directory = new DirectoryPage(page, server.url);
  const graph = await graphAs(await demoAccount());
  const before = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  await directory.open();
  await page.getByRole('link', { name: 'Employees, with manager approval', exact: true }).click();
  const description = page.getByRole('textbox', { name: 'Description' });
  await expect(description).toHaveValue(String(before.description));
  const editorUrl = page.url();

  // Nothing changed: the Directory tabs leave without asking.
  await page.getByRole('tablist', { name: 'Directory pages' }).getByRole('tab', { name: 'Assignments' }).click();
  await expect(page).toHaveURL(/#\/directory\/assignments$/);
  await page.goBack();
  await description.fill('Edited, not saved.');

  // Another tab of the Directory section.
  const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(page.getByText('Unsaved changes', { exact: true })).toBeVisible();
  await page.getByRole('tablist', { name: 'Directory pages' }).getByRole('tab', { name: 'Assignments' }).click();
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await expectAccessible(page, 'discard unsaved changes');
  await page.screenshot({ path: '/tmp/directory-discard-prompt.png', fullPage: true });
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toBeHidden();
  expect(page.url()).toBe(editorUrl);
  await expect(description).toHaveValue('Edited, not saved.');

  // Another section, from the navigation; answered from the keyboard (Escape keeps editing).
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  expect(page.url()).toBe(editorUrl);
  await expect(description).toHaveValue('Edited, not saved.');

  // Closing or reloading the page: the browser's own question is asked.
  expect(await page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(true);

  // Back: asked, and Discard goes where back was going. (Playwright's goBack would wait for a
  // navigation that the question holds.)
  await page.evaluate(() => history.back());
  await expect(ask).toBeVisible();
  expect(page.url()).toBe(editorUrl);
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/#\/directory$/);
  await expect(page.getByTestId('policy-table')).toBeVisible();
  expect(await page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })))).toBe(false);

  // Opened again: the policy as the service has it, the edit gone.
  await page.getByRole('link', { name: 'Employees, with manager approval', exact: true }).click();
  await expect(description).toHaveValue(String(before.description));
  expect((await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body.description).toBe(before.description);
});

test('the Review tab says in words who reviews, how often and what happens at the end, with the JSON behind a toggle; users are picked by name', async ({
  page,
}) => {
  // Fails on the old code: the Review tab showed reviewSettings as raw JSON, and a picked user's field showed their id.
  const demo = await demoAccount();
  const graph = await graphAs(demo);
  const before = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  const directory = new DirectoryPage(page, server.url);
  await directory.open(`#/directory/policies/${POLICY}`);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(String(before.displayName));

  await directory.editorTab('Access reviews').click();
  await page.getByRole('button', { name: 'Set up access reviews' }).click();
  await page.getByRole('combobox', { name: 'If reviewers do not respond' }).click();
  await page.getByRole('option', { name: 'Remove access' }).click();
  // A specific user as fallback reviewer, found by typing the start of their name.
  const fallback = page.getByRole('group', { name: 'Fallback reviewers' });
  await fallback.getByRole('button', { name: 'Add to Fallback reviewers' }).click();
  await page.getByRole('menuitem', { name: 'Specific user' }).click();
  const user = fallback.getByRole('combobox', { name: 'User', exact: true });
  await user.fill('Demo');
  await page.getByRole('option', { name: new RegExp(demo.user.userPrincipalName) }).click();
  await expect(user).toHaveValue(`Demo User (${demo.user.userPrincipalName})`);

  await directory.editorTab('Review').click();
  const row = page.getByTestId('review-diff').locator('tr[data-path="reviewSettings"]');
  await expect(row).toContainText(
    "Reviewed every quarter by the requestor's manager (or else Demo User); if nobody decides, access is removed.",
  );
  await expect(page.getByTestId('review-summary')).toContainText(
    "Access reviews: Reviewed every quarter by the requestor's manager (or else Demo User); if nobody decides, access is removed.",
  );
  await expect(page.getByTestId('review-summary')).toContainText('Access: Ends after 365 days.');
  // No JSON until it is asked for.
  await expect(row).not.toContainText('expirationBehavior');
  await expect(page.getByTestId('review-json')).toHaveCount(0);
  await expectAccessible(page, 'policy editor, review in words');
  await page.screenshot({ path: '/tmp/directory-review-summary.png', fullPage: true });

  const toggle = page.getByRole('button', { name: 'Show JSON' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Hide JSON' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('review-json')).toContainText('"expirationBehavior": "removeAccess"');
  await expect(row).toContainText('"expirationBehavior": "removeAccess"');
  await page.screenshot({ path: '/tmp/directory-review-json.png', fullPage: true });
  await page.getByRole('button', { name: 'Hide JSON' }).click();
  await expect(page.getByTestId('review-json')).toHaveCount(0);

  await directory.save();
  await expect(page.getByText('Policy saved')).toBeVisible();
  const stored = (await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body;
  expect(stored.reviewSettings).toMatchObject({
    isEnabled: true,
    expirationBehavior: 'removeAccess',
    fallbackReviewers: [{ '@odata.type': '#microsoft.graph.singleUser', userId: demo.user.id }],
  });

  // A stage's custom extension is picked by name from the catalog's custom workflow extensions.
  await directory.editorTab('Custom extensions').click();
  const extension = page.getByRole('combobox', { name: 'Extension 1: custom extension' });
  await expect(extension).toHaveValue('Open a service desk ticket');
  await extension.click();
  await expect(page.getByRole('option', { name: 'Open a service desk ticket' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect((await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body.customExtensionStageSettings[0].customExtension.id).toBe(
    before.customExtensionStageSettings[0].customExtension.id,
  );

  // Put back for the tests that follow.
  await directory.editorTab('Access reviews').click();
  await page.getByRole('button', { name: 'Turn access reviews off' }).click();
  await directory.save();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  expect((await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).body.reviewSettings).toBeNull();
});

test('creates a policy, duplicates it and deletes the copy', async ({ page }) => {
  const directory = new DirectoryPage(page, server.url);
  const graph = await graphAs(await demoAccount());
  await directory.open();
  await page.getByRole('link', { name: 'New policy' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Contractors');
  await directory.editorTab('Lifecycle').click();
  await page.getByText('On a date', { exact: true }).click();
  await directory.editorTab('Review').click();
  await expect(page.getByText('POST /identityGovernance/entitlementManagement/assignmentPolicies')).toBeVisible();
  await directory.save();
  await expect(page.getByTestId('policy-problems')).toContainText('Lifecycle: Choose the day access ends');
  await page.getByText('After a time', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Access lasts' }).fill('90');
  await directory.save();
  const id = await directory.openedPolicyId();
  expect((await graph('GET', `${EM}/assignmentPolicies/${id}`)).body).toMatchObject({
    displayName: 'Contractors',
    expiration: { type: 'afterDuration', duration: 'P90D' },
    allowedTargetScope: 'allMemberUsers',
  });

  await page.getByRole('link', { name: 'Duplicate' }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Contractors (copy)');
  // Saved from the keyboard.
  await page.getByRole('textbox', { name: 'Name' }).press('Control+s');
  const copyId = await directory.openedPolicyId(id);
  expect((await graph('GET', `${EM}/assignmentPolicies/${copyId}`)).body).toMatchObject({
    displayName: 'Contractors (copy)',
    expiration: { duration: 'P90D' },
  });

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete policy' }).click();
  await expect(page.getByTestId('policy-table')).not.toContainText('Contractors (copy)');
  await expect(page.getByTestId('policy-table')).toContainText('Contractors');
  expect((await graph('GET', `${EM}/assignmentPolicies/${copyId}`)).status).toBe(404);

  // A policy that assignments use is kept, and Graph says why.
  await page.getByRole('button', { name: 'Delete Employees, with manager approval' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete policy' }).click();
  // The error panel, not the "Policy saved" notice, which may still be showing on a slow run.
  const notDeleted = page.getByRole('alert').filter({ hasText: 'The policy was not deleted' });
  await expect(notDeleted).toContainText('The policy cannot be deleted while 1 assignment still uses it');
  expect((await graph('GET', `${EM}/assignmentPolicies/${POLICY}`)).status).toBe(200);
});

test('saves Microsoft’s documented policy body, which has no reviewSettings, then edits and saves that policy without inventing reviews', async ({
  page,
}) => {
  const demo = await demoAccount();
  const graph = await graphAs(demo);
  const directory = new DirectoryPage(page, server.url);
  await directory.open();
  // Graph's own update example, with this tenant's ids; first a policy for it to replace.
  const documented = (policyId: string) => graphDocsUpdateBody({ policyId, accessPackageId: PACKAGE, userId: demo.user.id });
  const { id: _id, ...asNew } = documented('new');
  const created = await graph('POST', `${EM}/assignmentPolicies`, { ...asNew, displayName: 'To be replaced' });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  // Through the console's own policy service, as a script or the editor would send it.
  expect(await consoleCall(page, 'directoryPolicies', 'update', { policyId: id, policy: documented(id) })).toMatchObject({
    ok: true,
    value: { id, displayName: 'All Users' },
  });

  await directory.open(`#/directory/policies/${id}`);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('All Users');
  await directory.editorTab('Access reviews').click();
  await expect(page.getByText('Assignments are not reviewed.')).toBeVisible();
  await directory.editorTab('Basics').click();
  await page.getByRole('textbox', { name: 'Description' }).fill('Everyone in the directory may ask; their manager approves.');
  await directory.editorTab('Review').click();
  expect(await directory.reviewedPaths()).toEqual(['description']);
  await directory.save();
  await expect(page.getByText('Policy saved')).toBeVisible();

  const stored = (await graph('GET', `${EM}/assignmentPolicies/${id}`)).body;
  expect(stored).toMatchObject({
    displayName: 'All Users',
    description: 'Everyone in the directory may ask; their manager approves.',
    allowedTargetScope: 'allDirectoryUsers',
    reviewSettings: null,
    questions: [],
  });
  expect(stored.requestApprovalSettings.stages).toEqual([
    expect.objectContaining({
      durationBeforeAutomaticDenial: 'P2D',
      fallbackPrimaryApprovers: [{ '@odata.type': '#microsoft.graph.singleUser', userId: demo.user.id, description: 'user' }],
    }),
  ]);
  expect((await graph('DELETE', `${EM}/assignmentPolicies/${id}`)).status).toBe(204);
});

test('lists assignments by page with filters and chosen columns, opens one expanded, and shows the Graph requests', async ({ page }) => {
  const demo = await demoAccount();
  const graph = await graphAs(demo);
  for (let i = 0; i < 30; i++) {
    const made = await graph('POST', `${EM}/assignmentRequests`, {
      requestType: 'adminAdd',
      assignment: { targetId: demo.user.id, assignmentPolicyId: POLICY },
    });
    expect(made.status).toBe(201);
  }
  const directory = new DirectoryPage(page, server.url);
  await directory.open('#/directory/assignments');
  const range = page.getByTestId('assignment-range');
  await expect(range).toHaveText('1–32 of 32');
  await page.getByRole('combobox', { name: 'Assignments per page' }).click();
  await page.getByRole('option', { name: '25' }).click();
  await expect(range).toHaveText('1–25 of 32');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(range).toHaveText('26–32 of 32');
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(range).toHaveText('1–25 of 32');

  await page.getByRole('combobox', { name: 'State', exact: true }).click();
  await page.getByRole('option', { name: 'Expired' }).click();
  await expect(range).toHaveText('1–1 of 1');
  const table = page.getByTestId('assignment-table');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table).toContainText('Expired');

  // Columns: drop Schedule, add Status; the table and the request to Graph follow.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Schedule' }).uncheck();
  await page.getByRole('checkbox', { name: 'Status' }).check();
  await page.keyboard.press('Escape');
  await expect(table.locator('thead')).toHaveText(/Target.*Access package.*Policy.*State.*Status/);
  await expect(table.locator('thead')).not.toContainText('Schedule');
  await expectAccessible(page, 'assignments');

  await table.getByRole('link', { name: new RegExp(demo.user.userPrincipalName) }).click();
  const details = page.getByTestId('assignment-details');
  await expect(details.getByTestId('assignment-package')).toContainText('Marketing campaign resources');
  await expect(details.getByTestId('assignment-package')).toContainText('Sites, groups and apps for the spring campaign.');
  await expect(details.getByTestId('assignment-policy')).toContainText('Employees, with manager approval');
  await expect(details.getByTestId('assignment-policy')).toContainText('Who can request: All members (excluding guests)');
  await expectAccessible(page, 'assignment details');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/#\/directory\/assignments$/);

  // The column choice is kept by main, and Graph was asked for those properties only.
  const prefs = JSON.parse(await readFile(join(server.dataDir, 'console-preferences.json'), 'utf8')) as Json;
  expect(prefs.directory.assignmentColumns).toEqual(['target', 'accessPackage', 'assignmentPolicy', 'state', 'status']);
  await page.getByRole('tab', { name: 'Graph traffic' }).click();
  const traffic = page.getByTestId('graph-traffic');
  const listRequest = traffic
    .locator('tbody tr', { hasText: "/assignments?$filter=state%20eq%20'expired'&$select=id,state,status" })
    .first();
  await expect(listRequest).toContainText('200');
  await expect(listRequest).toContainText(
    '$expand=target($select=id,objectId,displayName,principalName,email,subjectType),accessPackage($select=id,displayName)',
  );
  await expect(traffic.locator('tbody tr', { hasText: `/assignments/` }).first()).toContainText(
    '$expand=target,accessPackage,assignmentPolicy',
  );
  await expectAccessible(page, 'graph traffic');
  await page.screenshot({ path: test.info().outputPath('graph-traffic.png'), fullPage: true });
});

test('shows each administrative unit’s scoped role members with the role’s name', async ({ page }) => {
  const demo = await demoAccount();
  const directory = new DirectoryPage(page, server.url);
  await directory.open('#/directory/units');
  const members = page.getByTestId('scoped-members');
  const row = members.locator('tbody tr').first();
  await expect(row).toContainText('User Administrator');
  await expect(row).toContainText('Demo User');
  await expect(row).toContainText(demo.user.userPrincipalName);
  await expect(row).toContainText('User');
  await expect(page.getByRole('navigation', { name: 'Administrative units' })).toContainText('Seattle District Technical Schools');
  await expectAccessible(page, 'administrative units');
});

test('Settings shows who the directory acts as; a sign-out holds the directory pages until the next sign-in', async ({ page }) => {
  const demo = await demoAccount();
  await page.goto(`${server.url}/#/settings`);
  const panel = page.getByTestId('directory-account');
  await expect(panel.getByTestId('sign-in-summary')).toHaveText(`Signed in as Demo User (${demo.user.userPrincipalName})`);
  await expect(panel).toContainText(demo.tenant);
  await expect(panel).toContainText(demo.client_id);
  await expect(panel.getByTestId('granted-scopes')).toContainText('EntitlementManagement.ReadWrite.All');
  // The token was issued, for 60 minutes, at the first Graph call after the console started:
  // how many minutes it has left depends on how long the tests before this one took.
  const expiry = panel.getByTestId('token-expiry');
  await expect(expiry).toContainText(/in \d+ minutes; renewed without asking/);
  const minutesLeft = Number(/in (\d+) minutes/.exec((await expiry.textContent()) ?? '')?.[1]);
  expect(minutesLeft).toBeLessThanOrEqual(60);
  expect(minutesLeft).toBeGreaterThanOrEqual(Math.round((consoleStartedAt + 3_600_000 - Date.now()) / 60_000));
  await expectAccessible(page, 'settings, directory account');
  await page.screenshot({ path: test.info().outputPath('settings-directory-account.png'), fullPage: true });

  await panel.getByRole('button', { name: 'Sign out' }).click();
  await expect(panel.getByTestId('sign-in-state')).toHaveText('Signed out');
  await page.goto(`${server.url}/#/directory/units`);
  await expect(page.getByRole('alert')).toContainText('signed out of the directory: sign in again in Settings');

  await page.goto(`${server.url}/#/settings`);
  await panel.getByRole('button', { name: 'Sign in' }).click();
  await expect(panel.getByTestId('sign-in-summary')).toHaveText(`Signed in as Demo User (${demo.user.userPrincipalName})`);
  await page.goto(`${server.url}/#/directory/units`);
  await expect(page.getByTestId('scoped-members')).toContainText('User Administrator');
});
