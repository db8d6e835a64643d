import { expectAccessible } from '../fixtures/accessibility';
import { freePort, startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { DirectoryPage } from '../pages/directory-page';

// Giving people roles over one administrative unit, and taking them away, against a console
// whose Graph emulator has a tenant of three people (the first signs the console in). What the
// console stored is read back from the emulator over HTTP, as another Graph client would.

let server: HeadlessConsole;
let graphUrl = '';

const TENANT = '34a00add-50aa-4eb3-aafe-698494dc22fb';
const APP = { id: '6df3c363-1413-4d81-ae54-0e4fc9d8e5d5', secret: 'scoped-roles-e2e-secret' };
const UNIT = '4d7ea995-bc0f-45c0-8c3e-132e93bdc2e4';
const MEMBERS = `/v1.0/directory/administrativeUnits/${UNIT}/scopedRoleMembers`;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Graph JSON read back in assertions
interface Member {
  id: string;
  roleId: string;
  roleMemberInfo: { id: string; displayName: string; userPrincipalName: string };
}

/** Graph over HTTP as the tenant's app (client credentials), answering status and JSON. */
async function graph(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: APP.id,
    client_secret: APP.secret,
    scope: 'https://graph.microsoft.com/.default',
  });
  const token = (
    (await (await fetch(`${graphUrl}/${TENANT}/oauth2/v2.0/token`, { method: 'POST', body: form })).json()) as { access_token: string }
  ).access_token;
  const response = await fetch(`${graphUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: response.status === 204 ? {} : ((await response.json()) as Json) };
}

const storedMembers = async (): Promise<Member[]> => (await graph('GET', MEMBERS)).body.value as Member[];
const roleId = async (name: string): Promise<string> =>
  (
    (await graph('GET', `/v1.0/directoryRoles?$filter=${encodeURIComponent(`displayName eq '${name}'`)}`)).body.value as { id: string }[]
  )[0]!.id;
const userId = async (upn: string): Promise<string> => (await graph('GET', `/v1.0/users/${encodeURIComponent(upn)}`)).body.id as string;
/** Who holds which role in the unit, as the emulator stored it. */
const holders = async () => (await storedMembers()).map((m) => `${m.roleMemberInfo.displayName}: ${m.roleId}`).sort();

test.beforeAll(async () => {
  const port = await freePort();
  graphUrl = `http://127.0.0.1:${port}`;
  const user = (upn: string, name: string, extra = '') =>
    `      - userPrincipalName: ${upn}\n        displayName: ${name}\n        password: ${name.replace(' ', '-')}-pass\n${extra}`;
  server = await startHeadlessConsole(
    '',
    0,
    '    listen: 127.0.0.1:0\n',
    [
      `    listen: 127.0.0.1:${port}`,
      `    tenant: ${TENANT}`,
      '    apps:',
      `      - client_id: ${APP.id}`,
      `        client_secret: ${APP.secret}`,
      '    users:',
      user('casey.admin@contoso.test', 'Casey Admin', '        roles: [Global Administrator]\n') +
        user('pat.lee@contoso.test', 'Pat Lee') +
        user('sam.rivera@contoso.test', 'Sam Rivera'),
    ].join('\n'),
  );
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('adds a role member by picking a role and typing a name, the service stores it, and Remove takes it away after asking', async ({
  page,
}) => {
  const directory = new DirectoryPage(page, server.url);
  const helpdesk = await roleId('Helpdesk Administrator');
  const pat = await userId('pat.lee@contoso.test');
  const before = await holders();
  await directory.open(`#/directory/units/${UNIT}`);
  await expect(directory.memberRow('Casey Admin', 'User Administrator')).toBeVisible();
  await expectAccessible(page, 'administrative unit with its role members');

  await page.getByRole('button', { name: 'Add role member' }).click();
  const dialog = directory.addMemberDialog();
  await expect(dialog).toBeVisible();
  const assign = dialog.getByRole('button', { name: 'Assign' });
  await expect(assign).toBeDisabled();

  // The roles a unit can scope, each with what it allows; Global Administrator is not one of them.
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await expect(page.getByRole('option', { name: /^Helpdesk Administrator/ })).toContainText('Can reset passwords for non-administrators');
  await expect(page.getByRole('option', { name: /^Global Administrator/ })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('scoped-role-role-list.png'), fullPage: true });
  await page.getByRole('option', { name: /^Helpdesk Administrator/ }).click();
  await expect(assign).toBeDisabled();

  // Type-ahead: each person shows their name and sign-in name.
  await dialog.getByRole('combobox', { name: 'Person' }).fill('pa');
  await expect(page.getByRole('option', { name: /^Pat Lee/ })).toContainText('pat.lee@contoso.test');
  await expect(page.getByRole('option', { name: /^Sam Rivera/ })).toHaveCount(0);
  await page.getByRole('option', { name: /^Pat Lee/ }).click();
  await expect(dialog.getByRole('combobox', { name: 'Person' })).toHaveValue('Pat Lee');
  await expect(assign).toBeEnabled();
  await expectAccessible(page, 'add role member dialog');
  await page.screenshot({ path: test.info().outputPath('scoped-role-add-dialog.png'), fullPage: true });
  await assign.click();

  await expect(dialog).toBeHidden();
  await expect(directory.memberRow('Pat Lee', 'Helpdesk Administrator')).toContainText('pat.lee@contoso.test');
  await expect(page.getByText('Pat Lee now has Helpdesk Administrator in Seattle District Technical Schools.')).toBeVisible();
  const stored = (await storedMembers()).find((m) => m.roleMemberInfo.id === pat);
  expect(stored).toMatchObject({ roleId: helpdesk, roleMemberInfo: { displayName: 'Pat Lee', userPrincipalName: 'pat.lee@contoso.test' } });
  await page.screenshot({ path: test.info().outputPath('scoped-role-members.png'), fullPage: true });

  // The person already has that role here: the dialog says so before asking Graph.
  await page.getByRole('button', { name: 'Add role member' }).click();
  await directory.chooseRole('Helpdesk Administrator');
  await directory.choosePerson('pat', 'Pat Lee');
  await expect(dialog.getByRole('status')).toHaveText('Pat Lee already has Helpdesk Administrator in this unit.');
  await expect(dialog.getByRole('button', { name: 'Assign' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await directory
    .memberRow('Pat Lee', 'Helpdesk Administrator')
    .getByRole('button', { name: 'Remove Helpdesk Administrator from Pat Lee' })
    .click();
  const confirm = directory.removeMemberDialog();
  await expect(confirm).toContainText('Pat Lee will no longer have Helpdesk Administrator in Seattle District Technical Schools.');
  await expectAccessible(page, 'remove role member dialog');
  await page.screenshot({ path: test.info().outputPath('scoped-role-remove-dialog.png'), fullPage: true });
  // Cancel keeps the role; the second time it is removed.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(directory.memberRow('Pat Lee', 'Helpdesk Administrator')).toBeVisible();
  await directory
    .memberRow('Pat Lee', 'Helpdesk Administrator')
    .getByRole('button', { name: 'Remove Helpdesk Administrator from Pat Lee' })
    .click();
  await confirm.getByRole('button', { name: 'Remove role' }).click();
  await expect(confirm).toBeHidden();
  await expect(directory.memberRow('Pat Lee', 'Helpdesk Administrator')).toHaveCount(0);
  await expect(directory.memberRow('Casey Admin', 'User Administrator')).toBeVisible();
  expect((await storedMembers()).some((m) => m.roleMemberInfo.id === pat)).toBe(false);
  expect(await holders()).toEqual(before);
});

test('a role someone else gave meanwhile is refused in words naming the person and the role', async ({ page }) => {
  const directory = new DirectoryPage(page, server.url);
  const passwords = await roleId('Password Administrator');
  const sam = await userId('sam.rivera@contoso.test');
  await directory.open(`#/directory/units/${UNIT}`);
  await expect(directory.memberRow('Casey Admin', 'User Administrator')).toBeVisible();
  await page.getByRole('button', { name: 'Add role member' }).click();
  await directory.chooseRole('Password Administrator');
  await directory.choosePerson('sam', 'Sam Rivera');

  // Another administrator gives Sam the same role while the dialog is open.
  const other = await graph('POST', MEMBERS, { roleId: passwords, roleMemberInfo: { id: sam } });
  expect(other.status).toBe(201);
  try {
    const dialog = directory.addMemberDialog();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Sam Rivera already has Password Administrator in this unit.');
    await expect(dialog.getByRole('alert')).not.toContainText('Request_BadRequest');
    await page.screenshot({ path: test.info().outputPath('scoped-role-duplicate.png'), fullPage: true });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // The refusal refreshed the list: the role given meanwhile shows.
    await expect(directory.memberRow('Sam Rivera', 'Password Administrator')).toBeVisible();
    expect((await storedMembers()).filter((m) => m.roleMemberInfo.id === sam)).toHaveLength(1);
  } finally {
    expect((await graph('DELETE', `${MEMBERS}/${other.body.id as string}`)).status).toBe(204);
  }
});

test('from the empty state, a role member is added with the keyboard alone', async ({ page }) => {
  const directory = new DirectoryPage(page, server.url);
  const userAdmin = await roleId('User Administrator');
  const casey = await userId('casey.admin@contoso.test');
  // The unit's one member is taken away by another client, then given back here.
  for (const member of await storedMembers()) expect((await graph('DELETE', `${MEMBERS}/${member.id}`)).status).toBe(204);
  try {
    await directory.open(`#/directory/units/${UNIT}`);
    await expect(page.getByText('No one has a role scoped to this unit yet.')).toBeVisible();
    await expectAccessible(page, 'administrative unit without role members');
    await page.screenshot({ path: test.info().outputPath('scoped-role-empty.png'), fullPage: true });

    const add = page.getByRole('button', { name: 'Add role member' });
    await add.focus();
    await page.keyboard.press('Enter');
    const dialog = directory.addMemberDialog();
    const role = dialog.getByRole('combobox', { name: 'Role' });
    await expect(role).toBeFocused();
    await page.keyboard.type('user adm');
    await expect(page.getByRole('option', { name: /^User Administrator/ })).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(role).toHaveValue('User Administrator');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('combobox', { name: 'Person' })).toBeFocused();
    await page.keyboard.type('cas');
    // The directory answered the search: Casey is the one option left.
    await expect(page.getByRole('option')).toHaveText([/^Casey Admin/]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('combobox', { name: 'Person' })).toHaveValue('Casey Admin');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Assign' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(directory.memberRow('Casey Admin', 'User Administrator')).toBeVisible();
  } finally {
    // Whatever happened above, the unit ends with Casey as its User Administrator, as it began.
    if (!(await storedMembers()).some((m) => m.roleId === userAdmin && m.roleMemberInfo.id === casey)) {
      expect((await graph('POST', MEMBERS, { roleId: userAdmin, roleMemberInfo: { id: casey } })).status).toBe(201);
    }
  }
  expect(await holders()).toEqual([`Casey Admin: ${userAdmin}`]);
});
