import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectAccessible } from '../fixtures/accessibility';
import { readDemoAccount, type DemoAccount } from '../fixtures/demo-account';
import { startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import type { Page } from '@playwright/test';

// Adding a Microsoft Entra tenant in Settings, using it, switching back and removing it. The
// console's own directory emulator stands in for the tenant: its token endpoint takes the
// client credentials and its Graph serves the directory pages, as a real tenant's would.
let server: HeadlessConsole;

const directoryFile = (name: string) => join(server.dataDir, 'directory', name);
const demoAccount = () => readDemoAccount(server.dataDir);
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Opens Add tenant and fills it in for the console's own emulator as a delegated tenant by its
 * https address, sign-in and Graph alike: the console trusts its own emulator's CA for both.
 */
async function openEmulatorTenantForm(
  page: Page,
  demo: DemoAccount,
  tenant: { tenant: string; name: string; signIn: 'Device code' | 'Browser sign-in' },
) {
  await page.getByTestId('directory-connections').getByRole('button', { name: 'Add tenant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a Microsoft Entra tenant' });
  await dialog.getByRole('textbox', { name: 'Tenant' }).fill(tenant.tenant);
  await dialog.getByRole('textbox', { name: 'Name' }).fill(tenant.name);
  await dialog.getByRole('textbox', { name: 'Application (client) id' }).fill(demo.client_id);
  await dialog.getByRole('radio', { name: tenant.signIn }).check();
  await dialog.getByRole('button', { name: 'Show national cloud, test addresses and a CA file' }).click();
  await dialog.getByRole('textbox', { name: 'Sign-in address' }).fill(`https://localhost:${new URL(demo.url).port}`);
  await dialog.getByRole('textbox', { name: 'Graph address' }).fill(`https://localhost:${new URL(demo.url).port}/v1.0`);
  return dialog;
}

test.beforeAll(async () => {
  server = await startHeadlessConsole();
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('adds a client-credentials tenant through the form (errors at their fields, a wrong secret refused), uses it, switches back and removes it', async ({
  page,
}) => {
  const demo = await demoAccount();
  await page.goto(`${server.url}/#/settings`);
  const connections = page.getByTestId('directory-connections');
  const account = page.getByTestId('directory-account');
  await expect(connections.locator('tr[aria-current="true"]')).toContainText('Built-in Graph emulator');
  await expect(connections).toContainText('No tenants added yet');

  await connections.getByRole('button', { name: 'Add tenant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a Microsoft Entra tenant' });
  await dialog.getByRole('textbox', { name: 'Tenant' }).fill('contoso');
  await dialog.getByRole('textbox', { name: 'Application (client) id' }).fill('my-app');
  await dialog.getByRole('radio', { name: 'App-only (client secret)' }).check();
  await dialog.getByRole('button', { name: 'Check and add' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Tenant' })).toHaveAccessibleDescription(/expected a tenant id \(a GUID\) or a domain/);
  await expect(dialog.getByRole('textbox', { name: 'Application (client) id' })).toHaveAccessibleDescription(/a GUID such as/);
  await expect(dialog.getByRole('textbox', { name: 'Client secret' })).toHaveAccessibleDescription(/required for client credentials/);
  await expect(dialog).toContainText('Certificates & secrets');
  await expectAccessible(page, 'settings, add tenant form with errors');
  await page.screenshot({ path: test.info().outputPath('settings-add-tenant-errors.png'), fullPage: true });

  // The emulator is on plain http on this computer: allowed for loopback addresses only.
  await dialog.getByRole('textbox', { name: 'Tenant' }).fill(demo.tenant);
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Contoso (app)');
  await dialog.getByRole('textbox', { name: 'Application (client) id' }).fill(demo.client_id);
  await dialog.getByRole('textbox', { name: 'Client secret' }).fill('not-the-secret');
  await dialog.getByRole('button', { name: 'Show national cloud, test addresses and a CA file' }).click();
  await dialog.getByRole('textbox', { name: 'Sign-in address' }).fill(demo.url);
  await dialog.getByRole('textbox', { name: 'Graph address' }).fill(`${demo.url}/v1.0`);
  await dialog.getByRole('button', { name: 'Check and add' }).click();
  await expect(dialog.getByRole('alert')).toContainText('AADSTS7000215: Invalid client secret provided');
  expect(await exists(directoryFile('tenants.json'))).toBe(false);

  // A CA file only main can open: its refusal comes back to the field, with no banner.
  const caFile = dialog.getByRole('textbox', { name: 'CA certificate file' });
  await caFile.fill(join(server.dataDir, 'no-such-ca.pem'));
  await dialog.getByRole('button', { name: 'Check and add' }).click();
  await expect(caFile).toHaveAccessibleDescription(/cannot read .*no-such-ca\.pem: no such file/);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await caFile.fill(server.configPath);
  await dialog.getByRole('button', { name: 'Check and add' }).click();
  await expect(caFile).toHaveAccessibleDescription(/relay-console\.yaml is not a PEM certificate/);
  await caFile.fill('');

  await dialog.getByRole('textbox', { name: 'Client secret' }).fill(demo.client_secret);
  await dialog.getByRole('textbox', { name: 'Client secret' }).press('Enter');
  await expect(dialog).toBeHidden();
  await expect(connections.locator('tr[aria-current="true"]')).toContainText('Contoso (app)');
  await expect(connections.locator('tr[aria-current="true"]')).toContainText('App-only (client secret)');
  await expect(account.getByTestId('sign-in-summary')).toHaveText('App-only access: the app acts as itself, no person is signed in');
  await expect(account.getByTestId('granted-scopes')).toContainText('EntitlementManagement.ReadWrite.All');
  await expect(account).toContainText('Application permissions');
  // Stored: the tenant in plain JSON, its secret only sealed.
  const tenantsFile = await readFile(directoryFile('tenants.json'), 'utf8');
  expect(JSON.parse(tenantsFile).tenants).toEqual([
    expect.objectContaining({
      name: 'Contoso (app)',
      tenant: demo.tenant,
      clientId: demo.client_id,
      signIn: 'clientCredentials',
      authorityHost: demo.url,
    }),
  ]);
  expect(tenantsFile).not.toContain(demo.client_secret);
  expect((await readFile(directoryFile('tenant-secrets.sealed'))).includes(demo.client_secret)).toBe(false);
  await expectAccessible(page, 'settings, tenant in use');
  await page.screenshot({ path: test.info().outputPath('settings-tenant-in-use.png'), fullPage: true });

  // The directory pages now read through the tenant's app-only token.
  await page.getByRole('link', { name: 'Directory' }).click();
  await expect(page.getByTestId('package-details')).toContainText('Marketing campaign resources');
  await page.goto(`${server.url}/#/directory/traffic`);
  await expect(page.getByTestId('graph-traffic')).toContainText('/identityGovernance/entitlementManagement/accessPackages');

  // A delegated tenant can be added without a secret; it waits for a sign-in.
  await page.goto(`${server.url}/#/settings`);
  await connections.getByRole('button', { name: 'Add tenant' }).click();
  await dialog.getByRole('textbox', { name: 'Tenant' }).fill('fabrikam.onmicrosoft.com');
  await dialog.getByRole('textbox', { name: 'Application (client) id' }).fill('11111111-2222-3333-4444-555555555555');
  await dialog.getByRole('radio', { name: 'Device code' }).check();
  await expect(dialog).toContainText('Allow public client flows');
  await expect(dialog.getByRole('textbox', { name: 'Client secret' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add tenant' }).click();
  await expect(dialog).toBeHidden();
  await expect(connections.locator('tr[aria-current="true"]')).toContainText('fabrikam.onmicrosoft.com');
  await expect(account.getByTestId('sign-in-state')).toHaveText('Signed out');
  await expect(account.getByRole('button', { name: 'Sign in' })).toBeEnabled();

  // Back to the emulator with the keyboard.
  await connections.getByRole('button', { name: 'Use Built-in Graph emulator' }).focus();
  await page.keyboard.press('Enter');
  await expect(connections.locator('tr[aria-current="true"]')).toContainText('Built-in Graph emulator');
  await expect(account.getByTestId('sign-in-summary')).toHaveText(`Signed in as Demo User (${demo.user.userPrincipalName})`);

  // Removing forgets the tenant and its sealed secret.
  await connections.getByRole('button', { name: 'Remove Contoso (app)' }).click();
  await page.getByRole('dialog', { name: 'Remove Contoso (app)?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(connections.getByText('Contoso (app)')).toHaveCount(0);
  const remaining = JSON.parse(await readFile(directoryFile('tenants.json'), 'utf8')).tenants as { name: string }[];
  expect(remaining.map((t) => t.name)).toEqual(['fabrikam.onmicrosoft.com']);
});

test('signs in to an added tenant with a device code typed on another device', async ({ page, browser }) => {
  const demo = await demoAccount();
  const port = new URL(demo.url).port;
  await page.goto(`${server.url}/#/settings`);
  const account = page.getByTestId('directory-account');

  // The emulator as a tenant by its https address: msal signs in and Graph answers over https (its local CA is the console's own).
  const dialog = await openEmulatorTenantForm(page, demo, {
    tenant: demo.user.userPrincipalName.split('@')[1]!,
    name: 'Emulator (device code)',
    signIn: 'Device code',
  });
  await dialog.getByRole('button', { name: 'Add tenant' }).click();
  await expect(dialog).toBeHidden();
  await expect(account.getByTestId('sign-in-state')).toHaveText('Signed out');

  await account.getByRole('button', { name: 'Sign in' }).click();
  const code = account.getByTestId('device-code');
  await expect(code).toContainText('Sign in on another device');
  const userCode = (await code.locator('code').first().innerText()).trim();
  expect(userCode).toMatch(/^[A-Z2-9]{9}$/);
  const verificationUri = await code.getByRole('link').getAttribute('href');
  expect(verificationUri).toBe(`https://localhost:${port}/devicelogin`);
  await expectAccessible(page, 'settings, device code shown');
  await page.screenshot({ path: test.info().outputPath('settings-device-code.png'), fullPage: true });

  // The other device: a browser that trusts the emulator's certificate.
  const phone = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const signInPage = await phone.newPage();
    await signInPage.goto(verificationUri!);
    await signInPage.getByLabel('Code').fill(userCode.toLowerCase());
    await signInPage.getByLabel('User name').fill(demo.user.userPrincipalName);
    await signInPage.getByLabel('Password').fill(demo.user.password);
    await signInPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(signInPage.getByRole('status')).toContainText('You have signed in');
  } finally {
    await phone.close();
  }

  await expect(account.getByTestId('sign-in-summary')).toHaveText(`Signed in as Demo User (${demo.user.userPrincipalName})`, {
    timeout: 20_000,
  });
  await expect(account.getByTestId('granted-scopes')).toContainText('Calendars.Read');
  await expect(account.getByTestId('device-code')).toHaveCount(0);
  await page.getByRole('link', { name: 'Directory' }).click();
  await expect(page.getByTestId('package-details')).toContainText('Marketing campaign resources');
});

test('signs in to an added tenant through the browser (authorization code with PKCE)', async ({ page, browser }) => {
  const demo = await demoAccount();
  const port = new URL(demo.url).port;
  await page.goto(`${server.url}/#/settings`);
  const connections = page.getByTestId('directory-connections');
  const account = page.getByTestId('directory-account');

  const dialog = await openEmulatorTenantForm(page, demo, { tenant: demo.tenant, name: 'Emulator (browser)', signIn: 'Browser sign-in' });
  await dialog.getByRole('button', { name: 'Add tenant' }).click();
  await expect(dialog).toBeHidden();
  await expect(connections.locator('tr[aria-current="true"]')).toContainText('Emulator (browser)');
  await expect(account.getByTestId('sign-in-state')).toHaveText('Signed out');

  // Headless, no browser window opens: the console links the sign-in page instead.
  await account.getByRole('button', { name: 'Sign in' }).click();
  const link = account.getByRole('link', { name: 'open the sign-in page' });
  await expect(link).toBeVisible();
  const signInUrl = new URL((await link.getAttribute('href'))!);
  expect(`${signInUrl.origin}${signInUrl.pathname}`).toBe(`https://localhost:${port}/${demo.tenant}/oauth2/v2.0/authorize`);
  expect(signInUrl.searchParams.get('code_challenge_method')).toBe('S256');
  await page.screenshot({ path: test.info().outputPath('settings-browser-sign-in.png'), fullPage: true });

  // The browser on this computer (trusting the emulator's CA): the emulator's sign-in page.
  const desktop = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const signInPage = await desktop.newPage();
    await signInPage.goto(signInUrl.href);
    await expect(signInPage.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(signInPage.getByText('to continue to')).toContainText('Relay Console (emulator demo)');
    await expect(signInPage.getByRole('listitem').filter({ hasText: 'Calendars.Read' }).first()).toBeVisible();
    await signInPage.getByLabel('User name').fill(demo.user.userPrincipalName);
    await signInPage.getByLabel('Password').fill('not the password');
    await signInPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(signInPage.getByRole('alert')).toHaveText('Your account or password is incorrect.');
    await expect(signInPage.getByLabel('User name')).toHaveValue(demo.user.userPrincipalName);
    await signInPage.screenshot({ path: test.info().outputPath('emulator-sign-in-page.png'), fullPage: true });
    await signInPage.getByLabel('Password').fill(demo.user.password);
    await signInPage.getByLabel('Password').press('Enter');
    // The page posts the code to the console's loopback listener, which answers its own page.
    await expect(signInPage.locator('body')).toContainText('Signed in. You can close this tab and return to Relay Console.');
  } finally {
    await desktop.close();
  }

  await expect(account.getByTestId('sign-in-summary')).toHaveText(`Signed in as Demo User (${demo.user.userPrincipalName})`, {
    timeout: 20_000,
  });
  await expect(account.getByTestId('granted-scopes')).toContainText('EntitlementManagement.ReadWrite.All');
  await expectAccessible(page, 'settings, signed in through the browser');
  await page.getByRole('link', { name: 'Directory' }).click();
  await expect(page.getByTestId('package-details')).toContainText('Marketing campaign resources');
});
