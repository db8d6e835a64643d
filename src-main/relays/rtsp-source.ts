import type { RelayMonitor } from './relay-monitor';
import { parseRemoteInfo } from './remote-answers';
import { relayJson, RelayHttpError } from './relay-http';

/** A dial that would fail the same way again (no such relay, no RTSP server): the viewer is told at once. */
class RemoteSourceError extends Error {
  override name = 'RemoteSourceError';
  readonly permanent = true;
}

/**
 * Where `relay://<relay>/<stream>` is pulled from: the relay's RTSP server on the host of its
 * API address, at the port its `/api` says (asked now when it was never reached), with its
 * login. Only the stream name comes from the caller, and it becomes one path segment.
 */
export async function remoteRtspSource(monitor: RelayMonitor, relay: string, stream: string, signal: AbortSignal): Promise<string> {
  const found = monitor.get(relay);
  if (!found) {
    const names = monitor.list().map((r) => r.name);
    throw new RemoteSourceError(
      `there is no relay named ${relay}${names.length > 0 ? ` (the config's relays: are ${names.join(', ')})` : ': the config lists no relays:'}`,
    );
  }
  let port = found.health?.rtspPort;
  if (!found.health) {
    try {
      port = parseRemoteInfo(await relayJson(found.target, '/api', { signal })).rtspPort;
    } catch (error) {
      throw new Error(`relay ${relay} is unreachable: ${error instanceof RelayHttpError ? error.reason : (error as Error).message}`);
    }
  }
  if (!port) throw new RemoteSourceError(`relay ${relay} has no RTSP server (its rtsp.listen is empty), so its streams cannot be pulled`);
  const host = new URL(found.target.url).hostname;
  const login = found.target.login
    ? `${encodeURIComponent(found.target.login.username)}:${encodeURIComponent(found.target.login.password)}@`
    : '';
  return `rtsp://${login}${host}:${port}/${encodeURIComponent(stream)}`;
}
