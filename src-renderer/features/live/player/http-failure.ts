import type { PlayerFailure } from './player-types';

/** An HTTP answer that is not a success, as a failure with the relay's own sentence. */
export async function endpointFailure(response: Response): Promise<PlayerFailure> {
  const text = (await response.text().catch(() => '')).trim().slice(0, 200);
  return { reason: 'endpoint', status: response.status, detail: text || response.statusText || 'request refused' };
}

export const connectionFailure = (error: unknown): PlayerFailure => ({
  reason: 'connection',
  detail: (error as Error).message || 'connection failed',
});
