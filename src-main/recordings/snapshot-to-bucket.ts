import { ContractFailure } from '@shared/contract/result';

export interface SnapshotSource {
  /** The relay's API (`api.listen`), as this process reaches it. */
  apiUrl: string;
  /** `api.username` and `api.password`, when the API asks for them. */
  credentials?: { username: string; password: string };
}

/** A camera does not take longer than this for a picture (frame.jpeg waits 10 s for a keyframe). */
const SNAPSHOT_TIMEOUT_MS = 15_000;

/**
 * A stream's current picture as a JPEG, exactly as `GET /api/frame.jpeg?src=` makes it (the
 * cached keyframe through the stream's warm decoder, or the running MJPEG transcoder's picture):
 * asked of the relay's own API, so a snapshot in a bucket is the one a browser gets.
 */
export async function takeSnapshot(source: SnapshotSource, stream: string): Promise<Uint8Array> {
  const url = new URL('/api/frame.jpeg', source.apiUrl);
  url.searchParams.set('src', stream);
  const headers: Record<string, string> = {};
  if (source.credentials)
    headers.Authorization = `Basic ${Buffer.from(`${source.credentials.username}:${source.credentials.password}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(SNAPSHOT_TIMEOUT_MS) });
  } catch (error) {
    throw new ContractFailure('unavailable', `no picture of ${stream}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    const reason = (await response.text().catch(() => '')).trim().slice(0, 300);
    if (response.status === 404) throw new ContractFailure('not_found', `there is no stream ${stream}`);
    throw new ContractFailure('unavailable', `no picture of ${stream}: ${reason || `the relay answered ${response.status}`}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}
