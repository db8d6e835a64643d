import { z } from 'zod';
import { defineService, method } from './define-service';

/** One codec a source sends, as the relay reads it (size from the SPS where the source gives one). */
const codecInfoSchema = z.object({
  kind: z.enum(['video', 'audio']),
  /** Lower-case name as go2rtc shows it: h264, h265, jpeg, aac, opus, pcma, pcmu, ... */
  name: z.string(),
  profile: z.string().optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  sampleRate: z.number().int().positive().optional(),
  channels: z.number().int().positive().optional(),
});
export type CodecInfo = z.infer<typeof codecInfoSchema>;

const producerSummarySchema = z.object({
  /** Source URL with credentials masked. */
  url: z.string(),
  state: z.enum(['idle', 'dialing', 'running', 'waiting', 'closed']),
  medias: z.array(z.string()),
  codecs: z.array(codecInfoSchema).default([]),
  bytesReceived: z.number().nonnegative(),
  error: z.string().optional(),
});

const consumerSummarySchema = z.object({
  protocol: z.string(),
  remote: z.string(),
  medias: z.array(z.string()),
  bytesSent: z.number().nonnegative(),
  drops: z.number().nonnegative(),
});

export const streamSummarySchema = z.object({
  name: z.string(),
  /** The sources the stream is configured with, in order, credentials masked (publishers are only producers). */
  sources: z.array(z.string()).default([]),
  producers: z.array(producerSummarySchema),
  consumers: z.array(consumerSummarySchema),
});
export type StreamSummary = z.infer<typeof streamSummarySchema>;

export const streamName = z
  .string()
  .min(1, 'a stream needs a name')
  .max(128)
  .regex(/^[^\s/?#]+$/, 'a stream name has no spaces, slashes, ? or #');
const streamSource = z.string().trim().min(1, 'a stream needs a source URL').max(4096);
const source = streamSource;

/** go2rtc's `name: [src1, src2]`: the relay asks the sources in this order for each viewer's codecs. */
export const MAX_SOURCES = 16;
const listedOnce = (sources: readonly string[]) => new Set(sources).size === sources.length;
export const streamSources = z
  .array(streamSource)
  .min(1, 'a stream needs at least one source')
  .max(MAX_SOURCES, `a stream takes at most ${MAX_SOURCES} sources`)
  .refine(listedOnce, 'the same source is listed twice');

/** How the console shows a saved login: the relay keeps the real one and never sends it. */
export const MASKED_LOGIN = '***@';

/**
 * The add/edit stream form. `keptMasked`: the stream's saved sources as the console shows them
 * (login masked); such a source left as it is keeps its saved login, any other masked text must
 * be typed again.
 */
export function streamFormSchema(keptMasked: readonly string[] = []) {
  const url = streamSource.refine(
    (value) => !value.includes(MASKED_LOGIN) || keptMasked.includes(value),
    'type the login again: saved passwords are never shown in the console',
  );
  return z.object({
    name: streamName,
    sources: z
      .array(z.object({ url }))
      .min(1, 'a stream needs at least one source')
      .max(MAX_SOURCES, `a stream takes at most ${MAX_SOURCES} sources`)
      .refine((list) => listedOnce(list.map((s) => s.url.trim())), 'the same source is listed twice'),
  });
}
export type StreamFormValues = z.infer<ReturnType<typeof streamFormSchema>>;

/** What a source offers when dialed once, before it is saved: its medias and codecs, or why it failed. */
const probeResultSchema = z.object({
  medias: z.array(z.string()),
  codecs: z.array(codecInfoSchema),
  error: z.string().optional(),
});
export type ProbeResult = z.infer<typeof probeResultSchema>;

/**
 * The config file as it is on disk now; `revision` changes whenever its bytes do.
 * `runningRevision` is the revision of the text the engine runs: it differs from `revision` when
 * the file was changed on disk (an editor, a script) and not yet applied.
 */
const configFileSchema = z.object({ path: z.string(), text: z.string(), revision: z.string(), runningRevision: z.string() });
export type ConfigFile = z.infer<typeof configFileSchema>;

/** What applying the file on disk did: streams changed at once, and sections that wait for a restart. */
const configAppliedSchema = z.object({
  revision: z.string(),
  streams: z.object({ added: z.array(z.string()), changed: z.array(z.string()), removed: z.array(z.string()) }),
  restartNeeded: z.array(z.string()),
});
export type ConfigApplied = z.infer<typeof configAppliedSchema>;

export const configProblemSchema = z.object({
  message: z.string(),
  /** Errors stop a save; warnings (a key nothing reads) do not. */
  severity: z.enum(['error', 'warning']).default('error'),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});

/**
 * Where the relay's own servers listen, for links a user copies into other players. `host` is
 * the configured one; empty or a wildcard means "this machine", and the console fills in the
 * address it reached the engine by.
 */
const relayEndpointsSchema = z.object({
  rtsp: z.object({ host: z.string(), port: z.number().int().positive(), needsLogin: z.boolean() }).optional(),
});
export type RelayEndpoints = z.infer<typeof relayEndpointsSchema>;

/** The relay: streams with live stats, stream editing, and the config file. */
export const relayService = defineService({
  name: 'relay',
  methods: {
    listStreams: method(z.void(), z.array(streamSummarySchema)),
    addStream: method(z.object({ name: streamName, sources: streamSources }), z.void()),
    /**
     * Replaces a stream's sources and, with `newName`, renames it (refused with `conflict` when
     * that name is taken). A source sent back as shown (login masked) keeps its saved login.
     */
    editStream: method(z.object({ name: streamName, newName: streamName.optional(), sources: streamSources }), z.void()),
    deleteStream: method(z.object({ name: streamName }), z.void()),
    /**
     * Whether the console may save this source, and why not (unknown scheme, a scheme that runs
     * commands, ...): the same check addStream makes, without saving or dialing. `schemes` are
     * the ones a console may use.
     */
    checkSource: method(z.object({ source }), z.object({ problem: z.string().optional(), schemes: z.array(z.string()) })),
    /** Dials a source once without saving it (same rules as addStream: no code-running schemes). */
    probeSource: method(z.object({ source }), probeResultSchema),
    endpoints: method(z.void(), relayEndpointsSchema),
    readConfig: method(z.void(), configFileSchema),
    /** A JSON Schema of the whole config, generated from the schemas the engine reads it with. */
    configSchema: method(z.void(), z.object({ schema: z.record(z.string(), z.unknown()) })),
    validateConfig: method(z.object({ text: z.string().max(1024 * 1024) }), z.object({ problems: z.array(configProblemSchema) })),
    /**
     * Writes the file when it still has `baseRevision` on disk (else `conflict`: someone else
     * changed it); a file that does not validate is never written. Answers the new revision.
     */
    writeConfig: method(
      z.object({ text: z.string().max(1024 * 1024), baseRevision: z.string().optional() }),
      z.object({ revision: z.string() }),
    ),
    /**
     * Re-reads the file on disk and applies it as a save does (streams change at once), when it
     * still has `revision` (else `conflict`). A file that does not validate applies nothing
     * (`invalid_input`, with `details.line` and `details.column` for a YAML error).
     */
    applyConfigFile: method(z.object({ revision: z.string() }), configAppliedSchema),
  },
  events: {
    /** The stream list with fresh stats, at most once a second while anything changes. */
    onStreams: z.array(streamSummarySchema),
    /** The config file changed on disk (an editor, another console): its new revision. */
    onConfigFile: z.object({ revision: z.string() }),
  },
});
