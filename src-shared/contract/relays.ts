import { z } from 'zod';
import { defineService, method } from './define-service';
import { configProblemSchema, streamSummarySchema, streamName, streamSources } from './relay';

/**
 * Remote relays: other servers that speak go2rtc's HTTP API (this app headless, go2rtc, Frigate's
 * go2rtc), listed in the config's `relays:` section beside the embedded relay. Main talks to
 * them; the console never learns a relay's login. A remote stream plays in the console as the
 * source `relay://<relay>/<stream>` of the embedded relay (see `remoteStreamSource`).
 */

/** The embedded relay's id where a list mixes it with remote ones. */
export const LOCAL_RELAY = 'local';

/** `north`, `site-2`: a relay's name is a YAML key and the host part of `relay://<name>/<stream>`. */
export const relayName = z
  .string()
  .min(1, 'a relay needs a name')
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/i, 'a relay name is letters, digits, - and _')
  .refine((name) => name.toLowerCase() !== LOCAL_RELAY, `"${LOCAL_RELAY}" is the embedded relay`);

/** The API address of a relay (http or https; a login in the URL is split off and sealed by main). */
const relayUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\/[^/\s]+/i.test(value), 'a relay address is http:// or https:// and a host, e.g. http://10.0.0.5:1984');

/** A login for a relay's API (and its RTSP server, as go2rtc and Frigate share one). */
const relayLogin = z.object({ username: z.string().max(256), password: z.string().max(1024) });

const RELAY_STATES = ['checking', 'reachable', 'unreachable'] as const;
export type RelayState = (typeof RELAY_STATES)[number];

/** What a relay says of itself, from its `/api` and `/api/streams`. */
const relayHealthSchema = z.object({
  version: z.string().optional(),
  /** Seconds since the relay started, where its `/api` tells (go2rtc does not). */
  uptimeSeconds: z.number().nonnegative().optional(),
  streams: z.number().int().nonnegative(),
  producers: z.number().int().nonnegative(),
  consumers: z.number().int().nonnegative(),
  /** Summed over its producers and consumers. */
  bytesIn: z.number().nonnegative(),
  bytesOut: z.number().nonnegative(),
  /** The RTSP port it serves on (from `/api`'s `rtsp.listen`), which the embedded relay pulls its streams from. */
  rtspPort: z.number().int().positive().optional(),
});
export type RelayHealth = z.infer<typeof relayHealthSchema>;

/** One remote relay as the console shows it: never its password. */
const relayInfoSchema = z.object({
  name: relayName,
  /** The API address without its login. */
  url: z.string(),
  /** Whether a login is kept for it (sealed in main). */
  hasLogin: z.boolean(),
  username: z.string().optional(),
  /** `config`: from the config file as the user wrote it; `console`: added in Settings. */
  origin: z.enum(['config', 'console']),
  state: z.enum(RELAY_STATES),
  /** Why it is unreachable (refused, timed out, HTTP 401, ...). */
  reason: z.string().optional(),
  /** Since when it has been in this state. */
  sinceMs: z.number(),
  /** The last check, reachable or not. */
  checkedMs: z.number().optional(),
  health: relayHealthSchema.optional(),
  /** Whether its `/api/config` answers, so Config can edit it. */
  configEditable: z.boolean().optional(),
});
export type RelayInfo = z.infer<typeof relayInfoSchema>;

/** A remote relay's streams, as its `/api/streams` says, mapped to the embedded relay's summary. */
const relayStreamsSchema = z.object({ relay: relayName, streams: z.array(streamSummarySchema) });
export type RelayStreams = z.infer<typeof relayStreamsSchema>;

/** What `test` found at an address: the relay's own words, or why it cannot be used. */
const relayTestSchema = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
  health: relayHealthSchema.optional(),
});
export type RelayTest = z.infer<typeof relayTestSchema>;

const remoteStream = z.object({ relay: relayName, name: streamName });

/**
 * The longest source `remoteStreamSource` makes: a relay name of 64 characters (ASCII) and a
 * stream name of 128 UTF-16 units, each of which percent-encodes to at most 9 characters (a
 * 3-byte UTF-8 character; a 4-byte one is two units for 12).
 */
export const MAX_REMOTE_SOURCE_LENGTH = 'relay://'.length + 64 + '/'.length + 128 * 9;

/** The source of the embedded relay that plays stream `name` of relay `relay`. */
export function remoteStreamSource(relay: string, name: string): string {
  return `relay://${relay}/${encodeURIComponent(name)}`;
}

/** The relay and stream a `relay://` source names, or undefined for any other source. */
export function parseRemoteStreamSource(source: string): { relay: string; name: string } | undefined {
  const match = /^relay:\/\/([^/?#]+)\/([^?#]+)$/.exec(source);
  if (!match) return undefined;
  try {
    return { relay: match[1]!, name: decodeURIComponent(match[2]!) };
  } catch {
    return undefined;
  }
}

export const relaysService = defineService({
  name: 'relays',
  methods: {
    /** The remote relays, in the config's order. */
    list: method(z.void(), z.array(relayInfoSchema)),
    /**
     * Asks an address (or a saved relay's, by `name`) for `/api` and `/api/streams` with the login
     * given (or the saved one) and answers what it found. Saves nothing.
     */
    test: method(z.union([z.object({ url: relayUrl, login: relayLogin.optional() }), z.object({ name: relayName })]), relayTestSchema),
    /** Adds a relay once `test` passes on it (else `unavailable` with the reason); `conflict` when the name is taken. */
    add: method(z.object({ name: relayName, url: relayUrl, login: relayLogin.optional() }), z.void()),
    /** Changes a relay's address, login (absent: kept) or name. */
    edit: method(
      z.object({ name: relayName, newName: relayName.optional(), url: relayUrl.optional(), login: relayLogin.nullable().optional() }),
      z.void(),
    ),
    remove: method(z.object({ name: relayName }), z.void()),
    /** Every reachable remote relay's streams (an unreachable one is absent: see `list`). */
    streams: method(z.void(), z.array(relayStreamsSchema)),
    /** Through the remote's API: `PUT /api/streams` with each source, as go2rtc's web UI does. */
    addStream: method(z.object({ relay: relayName, name: streamName, sources: streamSources }), z.void()),
    editStream: method(z.object({ relay: relayName, name: streamName, newName: streamName.optional(), sources: streamSources }), z.void()),
    deleteStream: method(remoteStream, z.void()),
    /** Dials a source once on the remote relay (its `/api/streams?src=` probe), without saving. */
    probeSource: method(
      z.object({ relay: relayName, source: z.string().trim().min(1).max(4096) }),
      z.object({ medias: z.array(z.string()), error: z.string().optional() }),
    ),
    /** The remote's `/api/config` (`unavailable` when it does not serve one). */
    readConfig: method(z.object({ relay: relayName }), z.object({ text: z.string(), revision: z.string() })),
    /** Checks the text as the embedded relay's own config is checked, without writing. */
    validateConfig: method(
      z.object({ relay: relayName, text: z.string().max(1024 * 1024) }),
      z.object({ problems: z.array(configProblemSchema) }),
    ),
    /** Writes the remote's config when it is still at `baseRevision` (else `conflict`); invalid text is never sent. */
    writeConfig: method(
      z.object({ relay: relayName, text: z.string().max(1024 * 1024), baseRevision: z.string() }),
      z.object({ revision: z.string() }),
    ),
  },
  events: {
    /** The relay list whenever a relay's state or health changes (health at most every few seconds). */
    onRelays: z.array(relayInfoSchema),
    /** Every reachable remote relay's streams, when they change. */
    onStreams: z.array(relayStreamsSchema),
  },
});
