import { crossSiteCaller, isCrossSiteRequest } from '@main/platform/http/cross-origin';
import { HttpError } from '@main/platform/http/http-error';
import type { ProtocolContext } from '../protocol-context';
import { CLOUD_ACCOUNT_PATHS, type CloudAccountAdapter } from './cloud-accounts';
import { describeOnvifDevice, parseOnvifUrl } from '../onvif/onvif-client';
import { discoveryProbe, type ProbeKind } from './discovery-settings';
import { discoverDvrip } from './dvrip-discovery';
import { hassCameras, type HassSettings } from './hass-cameras';
import { discoverHomekit } from './homekit-discovery';
import { sendSources, type DiscoveredSource } from './sources-answer';
import type { ProbeTarget } from './udp-probe';
import { discoverOnvif } from './ws-discovery';

const DISCOVERY_TIMEOUT_MS = 10_000;

function hassSettings(section: unknown): HassSettings | undefined {
  if (!section || typeof section !== 'object') return undefined;
  const { url, token } = section as Record<string, unknown>;
  return typeof url === 'string' && url !== '' && typeof token === 'string' && token !== '' ? { url, token } : undefined;
}

/** The profiles of one ONVIF camera (`/api/onvif?src=onvif://...`), each a source to add. */
async function onvifDeviceStreams(src: string): Promise<DiscoveredSource[]> {
  let target;
  try {
    target = parseOnvifUrl(src);
  } catch {
    throw new HttpError(400, `src=${src} is not an ONVIF address (onvif://user:pass@host[:port])`);
  }
  try {
    const { name, tokens } = await describeOnvifDevice(target, AbortSignal.timeout(DISCOVERY_TIMEOUT_MS));
    const base = src.replace(/[?#].*$/, '');
    return tokens.map((token, i) => ({ name: `${name} stream${i}`, url: `${base}?subtype=${encodeURIComponent(token)}`, info: token }));
  } catch (error) {
    throw new HttpError(502, (error as Error).message);
  }
}

/**
 * Discovery endpoints that answer go2rtc's `{sources: [{name, url, info}]}`: network probes
 * (`/api/onvif` WS-Discovery, `/api/dvrip` DVRIP search, `/api/homekit` mDNS `_hap._tcp`, sent
 * where `discovery:` says), `/api/hass` (the cameras of the Home Assistant in `hass:`), and
 * the cloud account endpoints, which answer 501 naming the service until an adapter exists.
 */
export function registerDiscovery({ ctx, logger }: ProtocolContext, adapters: CloudAccountAdapter[] = []): void {
  const probe = (kind: ProbeKind) => {
    try {
      return discoveryProbe(ctx.config.section('discovery'), kind);
    } catch (error) {
      throw new HttpError(400, (error as Error).message);
    }
  };
  /** A probe's route; `one` answers `?src=` (a device asked directly) where the protocol has that. */
  const probeRoute = (
    path: string,
    kind: ProbeKind,
    discover: (target: ProbeTarget, timeoutMs: number) => Promise<DiscoveredSource[]>,
    one?: (src: string) => Promise<DiscoveredSource[]>,
  ) =>
    ctx.http.add([
      {
        method: 'GET',
        path,
        handler: async ({ req, res, url }) => {
          // A probe sends packets into the LAN and `?src=` makes the relay call a device: never at
          // the bidding of another site's page (an <img> sends no Origin, but Sec-Fetch-Site).
          if (isCrossSiteRequest(req) && !ctx.settings.api.username)
            throw new HttpError(403, `${crossSiteCaller(req)} may not run network discovery through this relay`);
          const src = url.searchParams.get('src');
          if (one && src) return sendSources(res, await one(src));
          const { target, timeoutMs } = probe(kind);
          try {
            sendSources(res, await discover(target, timeoutMs));
          } catch (error) {
            logger.warn('discovery probe failed', { path, error: (error as Error).message });
            throw new HttpError(500, `${path}: ${(error as Error).message}`);
          }
        },
      },
    ]);
  probeRoute('/api/onvif', 'onvif', discoverOnvif, onvifDeviceStreams);
  probeRoute('/api/dvrip', 'dvrip', discoverDvrip);
  // go2rtc's web UI asks the second; dashboards written against its API, the first.
  probeRoute('/api/homekit', 'mdns', discoverHomekit);
  probeRoute('/api/discovery/homekit', 'mdns', discoverHomekit);

  ctx.http.add([
    {
      method: 'GET',
      path: '/api/hass',
      handler: async ({ res }) => {
        const settings = hassSettings(ctx.config.section('hass'));
        if (!settings)
          throw new HttpError(404, 'no hass config: add hass: {url: http://homeassistant.local:8123, token: <long-lived access token>}');
        try {
          sendSources(res, await hassCameras(settings, AbortSignal.timeout(DISCOVERY_TIMEOUT_MS)));
        } catch (error) {
          logger.warn('Home Assistant discovery failed', { error: (error as Error).message });
          throw new HttpError(502, (error as Error).message);
        }
      },
    },
  ]);

  for (const { path, service } of CLOUD_ACCOUNT_PATHS) {
    const adapter = adapters.find((a) => a.path === path);
    ctx.http.add([
      {
        method: 'GET',
        path,
        handler: async ({ res, url }) => {
          if (!adapter)
            throw new HttpError(
              501,
              `no ${service} account adapter in this build: ${service} cameras cannot be listed or added here yet; add them by their RTSP or ONVIF address instead`,
            );
          sendSources(res, await adapter.list(url.searchParams, AbortSignal.timeout(DISCOVERY_TIMEOUT_MS)));
        },
      },
    ]);
  }
}
