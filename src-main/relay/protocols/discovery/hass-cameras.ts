import type { DiscoveredSource } from './sources-answer';

/** `hass:` of the config: a Home Assistant's address and a long-lived access token. */
export interface HassSettings {
  url: string;
  token: string;
}

interface HassState {
  entity_id: string;
  state: string;
  attributes?: { friendly_name?: string; access_token?: string };
}

/**
 * The cameras of a Home Assistant, from its REST API (`GET /api/states`, Bearer token): each
 * `camera.*` entity as a source playing its MJPEG proxy stream, authorised by the entity's own
 * rotating access token (so the long-lived token never goes into a stream URL).
 */
export async function hassCameras(settings: HassSettings, signal: AbortSignal): Promise<DiscoveredSource[]> {
  const base = settings.url.replace(/\/+$/, '');
  const response = await fetch(`${base}/api/states`, {
    headers: { Authorization: `Bearer ${settings.token}`, Accept: 'application/json' },
    signal,
  });
  if (response.status === 401 || response.status === 403)
    throw new Error(
      `Home Assistant at ${base} refused the token (${response.status}): make a long-lived access token in your Home Assistant profile`,
    );
  if (!response.ok) throw new Error(`Home Assistant at ${base} answered ${response.status}`);
  const states = (await response.json()) as HassState[];
  if (!Array.isArray(states)) throw new Error(`Home Assistant at ${base} did not answer a list of states`);
  return states
    .filter((s) => typeof s.entity_id === 'string' && s.entity_id.startsWith('camera.'))
    .map((s) => ({
      name: s.attributes?.friendly_name ?? s.entity_id,
      url: `${base}/api/camera_proxy_stream/${s.entity_id}${s.attributes?.access_token ? `?token=${encodeURIComponent(s.attributes.access_token)}` : ''}`,
      info: `${s.entity_id} (${s.state})`,
    }));
}
