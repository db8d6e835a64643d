import { HttpError } from '../../platform/http/http-error';
import type { ProtocolContext } from '../protocols';
import { CLOUD_ACCOUNT_PATHS, type CloudAccountAdapter } from './cloud-accounts';
import { hassCameras, type HassSettings } from './hass-cameras';
import { sendSources } from './sources-answer';

const DISCOVERY_TIMEOUT_MS = 10_000;

function hassSettings(section: unknown): HassSettings | undefined {
  if (!section || typeof section !== 'object') return undefined;
  const { url, token } = section as Record<string, unknown>;
  return typeof url === 'string' && url !== '' && typeof token === 'string' && token !== '' ? { url, token } : undefined;
}

/**
 * Discovery endpoints that answer go2rtc's `{sources: [{name, url, info}]}`: `/api/hass` (the
 * cameras of the Home Assistant in `hass: {url, token}`), and the cloud account endpoints, which
 * answer 501 naming the service until an adapter for it is registered.
 */
export function registerDiscovery({ ctx, logger }: ProtocolContext, adapters: CloudAccountAdapter[] = []): void {
  ctx.http.route(
    '/api/hass',
    async ({ res }) => {
      const settings = hassSettings(ctx.config.section('hass'));
      if (!settings) throw new HttpError(404, 'no hass config: add hass: {url: http://homeassistant.local:8123, token: <long-lived access token>}');
      try {
        sendSources(res, await hassCameras(settings, AbortSignal.timeout(DISCOVERY_TIMEOUT_MS)));
      } catch (error) {
        logger.warn('Home Assistant discovery failed', { error: (error as Error).message });
        throw new HttpError(502, (error as Error).message);
      }
    },
    ['GET'],
  );

  for (const { path, service } of CLOUD_ACCOUNT_PATHS) {
    const adapter = adapters.find((a) => a.path === path);
    ctx.http.route(
      path,
      async ({ res, url }) => {
        if (!adapter) throw new HttpError(501, `no ${service} account adapter in this build: ${service} cameras cannot be listed or added here yet; add them by their RTSP or ONVIF address instead`);
        sendSources(res, await adapter.list(url.searchParams, AbortSignal.timeout(DISCOVERY_TIMEOUT_MS)));
      },
      ['GET'],
    );
  }
}
