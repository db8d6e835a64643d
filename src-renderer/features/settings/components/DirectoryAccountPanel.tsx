import { Alert, Anchor, Badge, Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { IconLogin, IconLogout } from '@tabler/icons-react';
import { formatDateTime } from '@renderer/ui/format';
import { QueryState } from '@renderer/ui/QueryState';
import { ResultError } from '@renderer/ui/ResultError';
import { expiresInText, SIGN_IN_LABELS, signInSummary } from '../model/sign-in-text';
import { useDirectoryAccount } from '../use-directory-account';

const STATE_COLOR = { signedIn: 'teal', signingIn: 'blue', signedOut: 'gray', error: 'red' } as const;
const STATE_LABEL = { signedIn: 'Signed in', signingIn: 'Signing in', signedOut: 'Signed out', error: 'Error' } as const;

/** The directory connection: which tenant, who is signed in, the granted scopes, when the token expires; sign in and out. */
export function DirectoryAccountPanel() {
  const { status, act } = useDirectoryAccount();
  return (
    <section className="panel" aria-labelledby="directory-account-title" data-testid="directory-account">
      <Title order={2} id="directory-account-title" size="h4" mb="xs">
        Directory account
      </Title>
      <QueryState query={status} loading="Reading the directory sign-in…" errorTitle="The directory sign-in could not be read" />
      {status.data ? (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge variant="dot" color={STATE_COLOR[status.data.state]} data-testid="sign-in-state">
              {STATE_LABEL[status.data.state]}
            </Badge>
            <Text data-testid="sign-in-summary">{signInSummary(status.data)}</Text>
          </Group>
          {status.data.connection ? (
            <dl className="facts">
              <dt>Directory</dt>
              <dd>{status.data.connection.mode === 'emulator' ? 'The built-in Graph emulator' : 'Microsoft Graph'}</dd>
              <dt>Graph address</dt>
              <dd>
                <Code>{status.data.connection.graphBaseUrl}</Code>
              </dd>
              <dt>Tenant</dt>
              <dd>{status.data.connection.tenant}</dd>
              <dt>Application (client) id</dt>
              <dd>{status.data.connection.clientId}</dd>
              <dt>Sign-in</dt>
              <dd>{SIGN_IN_LABELS[status.data.connection.signIn]}</dd>
              {status.data.expiresAt ? (
                <>
                  <dt>Token expires</dt>
                  <dd data-testid="token-expiry">
                    {formatDateTime(status.data.expiresAt)} ({expiresInText(status.data.expiresAt, Date.now())}; renewed without asking)
                  </dd>
                </>
              ) : null}
              {status.data.scopes.length > 0 ? (
                <>
                  <dt>{status.data.appOnly ? 'Application permissions' : 'Granted scopes'}</dt>
                  <dd>
                    <Group gap={4} data-testid="granted-scopes">
                      {status.data.scopes.map((scope) => (
                        <Code key={scope}>{scope}</Code>
                      ))}
                    </Group>
                  </dd>
                </>
              ) : null}
            </dl>
          ) : null}
          {status.data.deviceCode ? (
            <Alert variant="outline" color="blue" title="Sign in on another device" data-testid="device-code">
              <Stack gap={4}>
                <Text size="sm">
                  Open{' '}
                  <Anchor href={status.data.deviceCode.verificationUri} target="_blank" rel="noreferrer">
                    {status.data.deviceCode.verificationUri}
                  </Anchor>{' '}
                  and enter the code
                </Text>
                <Group gap="xs">
                  <Code fz="lg">{status.data.deviceCode.userCode}</Code>
                  <CopyButton value={status.data.deviceCode.userCode}>
                    {({ copied, copy }) => (
                      <Button size="xs" variant="default" onClick={copy}>
                        {copied ? 'Copied' : 'Copy code'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                <Text size="xs">The code works until {formatDateTime(status.data.deviceCode.expiresAt)}.</Text>
              </Stack>
            </Alert>
          ) : null}
          {status.data.signInUrl && status.data.state === 'signingIn' ? (
            <Alert variant="outline" color="blue" title="Finish signing in in the browser">
              <Text size="sm">
                If no browser window opened,{' '}
                <Anchor href={status.data.signInUrl} target="_blank" rel="noreferrer">
                  open the sign-in page
                </Anchor>{' '}
                on this computer.
              </Text>
            </Alert>
          ) : null}
          {status.data.error ? (
            <Alert
              color="red"
              role="alert"
              title={status.data.state === 'error' ? 'The directory cannot be reached' : 'The last sign-in failed'}
            >
              {status.data.error}
            </Alert>
          ) : null}
          {act.isError ? <ResultError error={act.error} title="That did not work" /> : null}
          <Group>
            {status.data.state === 'signedIn' ? (
              <Button
                variant="default"
                leftSection={<IconLogout size={16} />}
                loading={act.isPending}
                onClick={() => act.mutate('signOut')}
              >
                Sign out
              </Button>
            ) : (
              <Button
                leftSection={<IconLogin size={16} />}
                loading={act.isPending || status.data.state === 'signingIn'}
                disabled={!status.data.connection}
                onClick={() => act.mutate('signIn')}
              >
                Sign in
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            This is the connection in use (chosen under Directory connections). Tokens and secrets stay in the console’s engine; a browser
            or device-code sign-in is kept in an encrypted cache, which signing out clears.
          </Text>
        </Stack>
      ) : null}
    </section>
  );
}
