import type { DirectoryConnection } from '../directory-connection';
import { createGraphClient, type GraphClient, type GraphExchangeInfo } from './graph-client';

/**
 * A client of the directory's connection that asks a signed-in person for more delegated scopes
 * (incremental consent), so a sign-in asks only for what reading needs and a write asks for its
 * permission when it is first made. App-only and emulator connections get what their app was
 * granted at once: they use the connection's own client. One client per connection: a sign-out
 * and sign-in, or a switch of tenant, brings a new one.
 */
export function clientWithScopes(
  open: () => Promise<DirectoryConnection>,
  scopes: string[],
  onExchange: (info: GraphExchangeInfo) => void,
): () => Promise<GraphClient> {
  let made: { connection: DirectoryConnection; client: GraphClient } | undefined;
  return async () => {
    const connection = await open();
    if (!connection.signIn) return connection.client;
    if (made?.connection !== connection) {
      made = {
        connection,
        client: createGraphClient({
          baseUrl: connection.client.baseUrl,
          tokens: connection.signIn.withScopes(scopes),
          fetch: connection.fetch,
          onExchange,
        }),
      };
    }
    return made.client;
  };
}
