import { createGraphClient, type GraphClient, type GraphExchangeInfo, type RetryInfo, type TokenProvider } from '../client/graph-client';
import { SHARED_CALENDAR_SCOPES } from '../client/msal-sign-in';
import type { DirectoryConnection } from '../directory-connection';

/** A calendar path (or a link the service gave) of a user named by id: not the signed-in person's `/me`. */
const OTHER_USERS_CALENDAR = /\/users\/[^/?]+\/calendar/i;

/**
 * The calendar sync's client: the directory's connection (one sign-in, one token cache) with a
 * client of its own, so its status counts only its own retries. Made with the first request, as
 * the sync resumes at start.
 */
export function calendarClient(
  open: () => Promise<DirectoryConnection>,
  onRetry: (info: RetryInfo) => void,
  onExchange: (info: GraphExchangeInfo) => void,
): GraphClient {
  let opened: { client: GraphClient; shared: GraphClient; connection: DirectoryConnection } | undefined;
  const current = async (): Promise<{ client: GraphClient; shared: GraphClient }> => {
    const connection = await open();
    // A new connection (after a sign-out and sign-in, or a switch) brings new tokens: a new client
    // with them, sending through the connection's HTTP so it trusts what the sign-in trusts.
    if (opened?.connection !== connection) {
      const make = (tokens: TokenProvider) =>
        createGraphClient({ baseUrl: connection.client.baseUrl, tokens, fetch: connection.fetch, onRetry, onExchange });
      const client = make(connection.tokens);
      // Another person's calendar needs Calendars.Read.Shared: asked for only then (incremental consent).
      opened = { connection, client, shared: connection.signIn ? make(connection.signIn.withScopes(SHARED_CALENDAR_SCOPES)) : client };
    }
    return opened;
  };
  return {
    get baseUrl() {
      if (!opened) throw new Error('the directory connection is not open yet');
      return opened.client.baseUrl;
    },
    get connectionKey() {
      if (!opened) throw new Error('the directory connection is not open yet');
      const { info } = opened.connection;
      return `${info.graphBaseUrl}|${info.tenant}|${info.clientId}`;
    },
    open: async () => {
      await current();
    },
    request: async (request) => {
      const clients = await current();
      return (OTHER_USERS_CALENDAR.test(request.path) ? clients.shared : clients.client).request(request);
    },
  };
}
