import { z } from 'zod';
import { relayName } from '@shared/contract/relays';

/** A login for a relay's API and its RTSP server (go2rtc and Frigate share one). */
export interface RelayLogin {
  username: string;
  password: string;
}

/** One relay of the config's `relays:` section: its API address without the login, and the login the URL carried. */
export interface ConfiguredRelay {
  name: string;
  url: string;
  login?: RelayLogin;
}

/**
 * `relays:` of the config, read here and nowhere else (the engine's unknown-key warnings use it).
 * Values are checked one by one in `readRelaysSection`, so one wrong address leaves the others.
 */
export const relaysConfigSchema = z.object({
  relays: z
    .record(z.string(), z.unknown(), {
      error: 'expected relay names and their API addresses, e.g. relays: { north: "http://10.0.0.5:1984" }',
    })
    .nullable()
    .optional()
    .describe('remote go2rtc-compatible relays: name → API address (http://user:pass@host:1984), shown beside the embedded relay'),
});

export class RelayUrlError extends Error {
  override name = 'RelayUrlError';
}

/**
 * A relay's address split into the address the console may see (no login, no query, no
 * trailing slash) and the login it carried. Only http and https: a relay is an HTTP API.
 */
export function splitRelayUrl(raw: string): { url: string; login?: RelayLogin } {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new RelayUrlError('a relay address is http:// or https:// and a host, e.g. http://10.0.0.5:1984');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RelayUrlError(`a relay address is http:// or https://, not ${parsed.protocol}`);
  }
  if (!parsed.hostname) throw new RelayUrlError('a relay address needs a host');
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const login = parsed.username || parsed.password ? { username: decode(parsed.username), password: decode(parsed.password) } : undefined;
  const path = parsed.pathname.replace(/\/+$/, '');
  return { url: `${parsed.protocol}//${parsed.host}${path}`, ...(login ? { login } : {}) };
}

/** The relays of the section in the file's order, and what was wrong with the others (each skipped). */
export function readRelaysSection(value: unknown): { relays: ConfiguredRelay[]; problems: string[] } {
  const relays: ConfiguredRelay[] = [];
  const problems: string[] = [];
  if (value === null || value === undefined) return { relays, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { relays, problems: ['relays: expected relay names and their API addresses, e.g. relays: { north: "http://10.0.0.5:1984" }'] };
  }
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const named = relayName.safeParse(name);
    if (!named.success) {
      problems.push(`relays.${name}: ${named.error.issues[0]?.message ?? 'not a relay name'}`);
      continue;
    }
    if (seen.has(name.toLowerCase())) {
      problems.push(`relays.${name}: another relay has this name`);
      continue;
    }
    if (typeof raw !== 'string' || raw.trim() === '') {
      problems.push(`relays.${name}: expected the relay's API address, e.g. http://10.0.0.5:1984`);
      continue;
    }
    try {
      relays.push({ name, ...splitRelayUrl(raw) });
      seen.add(name.toLowerCase());
    } catch (error) {
      problems.push(`relays.${name}: ${(error as Error).message}`);
    }
  }
  return { relays, problems };
}
