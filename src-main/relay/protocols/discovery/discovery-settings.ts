import type { ProbeTarget } from './udp-probe';

/**
 * `discovery:` of the config: where each probe is sent and how long answers are awaited. The
 * defaults are the protocols' own groups; a directed broadcast (`192.168.2.255:34569`) or one
 * device's address reaches a network the default route does not.
 */
export type ProbeKind = 'onvif' | 'dvrip' | 'mdns';

const DEFAULTS = { onvif: '239.255.255.250:3702', dvrip: '255.255.255.255:34569', mdns: '224.0.0.251:5353' } as const;
const DEFAULT_TIMEOUT_MS = 3000;

function target(value: unknown, fallback: string, key: string): ProbeTarget {
  const text = typeof value === 'string' && value !== '' ? value : fallback;
  const match = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) throw new Error(`discovery.${key}: ${text} is not an IPv4 address and port (e.g. ${fallback})`);
  return { host: match[1]!, port };
}

function timeout(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_TIMEOUT_MS;
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(String(value));
  const ms = match ? Number(match[1]) * (match[2] === 'ms' ? 1 : 1000) : NaN;
  if (!(ms >= 100 && ms <= 30_000)) throw new Error(`discovery.timeout: ${String(value)} must be between 100ms and 30s`);
  return ms;
}

const fields = (section: unknown) => (section && typeof section === 'object' ? (section as Record<string, unknown>) : {});

/** Where one kind of probe goes and how long its answers are awaited; each key is read on its own, so one typo breaks only its probe. */
export function discoveryProbe(section: unknown, kind: ProbeKind): { target: ProbeTarget; timeoutMs: number } {
  const raw = fields(section);
  return { target: target(raw[kind], DEFAULTS[kind], kind), timeoutMs: timeout(raw.timeout) };
}
