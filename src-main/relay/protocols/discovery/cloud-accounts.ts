import type { DiscoveredSource } from './sources-answer';

/**
 * A cloud camera or vacuum account (TP-Link Tapo, Ring, Nest, Wyze, Tuya, Xiaomi, Roborock):
 * signs in with the account and lists its devices as sources. None ships yet; each endpoint
 * answers 501 naming the account kind until an adapter for it is registered.
 */
export interface CloudAccountAdapter {
  /** The go2rtc API path it answers (`/api/ring`). */
  path: string;
  /** The service, for messages (`Ring`). */
  service: string;
  list(query: URLSearchParams, signal: AbortSignal): Promise<DiscoveredSource[]>;
}

/** go2rtc's cloud account endpoints and the services behind them. */
export const CLOUD_ACCOUNT_PATHS: ReadonlyArray<{ path: string; service: string }> = [
  { path: '/api/ring', service: 'Ring' },
  { path: '/api/nest', service: 'Google Nest' },
  { path: '/api/wyze', service: 'Wyze' },
  { path: '/api/tuya', service: 'Tuya' },
  { path: '/api/xiaomi', service: 'Xiaomi Mi Home' },
  { path: '/api/roborock', service: 'Roborock' },
];
