// Helpers of the calendar sync tests and benchmark: a Graph client on the local emulator that
// records what it asked for, and the emulator's own calendarView to compare the local copy with.
import { createGraphClient, type GraphClient, type GraphCollection, type RetryInfo } from '../client/graph-client';
import { createEndpointTokenProvider, type EndpointTokenOptions } from '../client/oauth-token-provider';
import type { RetryOptions } from '../client/retry-policy';

export interface EmulatorAccess {
  url: string;
  tenant: string;
  app: { clientId: string; clientSecret: string };
}

export interface SentRequest {
  url: string;
  prefer: string | null;
  status: number;
  /** The parsed body of a delta reply (2xx), kept so a test can replay the pages. */
  body?: unknown;
}

export interface RecordingClient {
  client: GraphClient;
  sent: SentRequest[];
}

/** A client with app-only tokens (client credentials) whose every request is recorded. */
export function recordingClient(
  emulator: EmulatorAccess,
  options: { retry?: RetryOptions; onRetry?: (info: RetryInfo) => void; keepBodies?: boolean } = {},
): RecordingClient {
  const sent: SentRequest[] = [];
  const tokenOptions: EndpointTokenOptions = {
    tokenUrl: `${emulator.url}/${emulator.tenant}/oauth2/v2.0/token`,
    clientId: emulator.app.clientId,
    clientSecret: emulator.app.clientSecret,
  };
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    const entry: SentRequest = { url, prefer: new Headers(init?.headers).get('prefer'), status: response.status };
    if (options.keepBodies !== false && response.ok && url.includes('/calendarView/delta')) entry.body = await response.clone().json();
    sent.push(entry);
    return response;
  };
  const client = createGraphClient({
    baseUrl: `${emulator.url}/v1.0`,
    tokens: createEndpointTokenProvider(tokenOptions, { kind: 'client_credentials' }),
    fetch: recordingFetch,
    retry: options.retry ?? { baseDelayMs: 20 },
    onRetry: options.onRetry,
  });
  return { client, sent };
}

export interface EventDraft {
  subject: string;
  /** UTC wall times, e.g. `2030-01-02T09:00:00`. */
  start: string;
  end: string;
}

export const eventBody = (draft: EventDraft) => ({
  subject: draft.subject,
  start: { dateTime: draft.start, timeZone: 'UTC' },
  end: { dateTime: draft.end, timeZone: 'UTC' },
});

/** Events CRUD on the emulator through the same client, for a user id. */
export function calendarWriter(client: GraphClient, userId: string) {
  const events = `/users/${encodeURIComponent(userId)}/events`;
  return {
    create: async (draft: EventDraft) =>
      (await client.request<{ id: string; lastModifiedDateTime: string }>({ method: 'POST', path: events, body: eventBody(draft) })).body,
    update: async (id: string, patch: Record<string, unknown>) =>
      (await client.request<{ id: string }>({ method: 'PATCH', path: `${events}/${encodeURIComponent(id)}`, body: patch })).body,
    remove: async (id: string) => {
      await client.request({ method: 'DELETE', path: `${events}/${encodeURIComponent(id)}` });
    },
  };
}

/** The emulator's calendarView of a window: id → lastModifiedDateTime, following every page. */
export async function calendarViewOf(
  client: GraphClient,
  userId: string,
  window: { start: string; end: string },
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let path = `/users/${encodeURIComponent(userId)}/calendarView`;
  let query: Record<string, string> | undefined = { startDateTime: window.start, endDateTime: window.end, $top: '1000' };
  for (;;) {
    const page = (await client.request<GraphCollection<{ id: string; lastModifiedDateTime: string }>>({ path, query })).body;
    for (const event of page.value) out.set(event.id, event.lastModifiedDateTime);
    if (!page['@odata.nextLink']) return out;
    path = page['@odata.nextLink'];
    query = undefined;
  }
}
