import { createGraphClient, type GraphClient, type GraphClientOptions } from './client/graph-client';
import { createPasswordTokenProvider, GRAPH_DEFAULT_SCOPE } from './client/oauth-token-provider';
import type { TestDirectoryEmulator } from './emulator/test-support';

// Beside client/, services/ and emulator/ because it needs both sides; lint keeps the emulator out of the others.

/** A Graph client for a test emulator, signed in as its user (password grant), as the console is. */
export function signedInClient(emu: TestDirectoryEmulator, options: Pick<GraphClientOptions, 'sleep' | 'retry'> = {}): GraphClient {
  return createGraphClient({
    baseUrl: `${emu.url}/v1.0`,
    tokens: createPasswordTokenProvider({
      tokenUrl: `${emu.url}/${emu.tenant}/oauth2/v2.0/token`,
      clientId: emu.app.clientId,
      clientSecret: emu.app.clientSecret,
      username: emu.user.userPrincipalName,
      password: emu.user.password,
      scopes: [GRAPH_DEFAULT_SCOPE, 'offline_access'],
    }),
    ...options,
  });
}
