import { z } from 'zod';
import { defineService, method } from './define-service';

export const producerSummarySchema = z.object({
  /** Source URL with credentials masked. */
  url: z.string(),
  state: z.enum(['idle', 'dialing', 'running', 'waiting', 'closed']),
  medias: z.array(z.string()),
  bytesReceived: z.number().nonnegative(),
  error: z.string().optional(),
});

export const consumerSummarySchema = z.object({
  protocol: z.string(),
  remote: z.string(),
  medias: z.array(z.string()),
  bytesSent: z.number().nonnegative(),
  drops: z.number().nonnegative(),
});

export const streamSummarySchema = z.object({
  name: z.string(),
  producers: z.array(producerSummarySchema),
  consumers: z.array(consumerSummarySchema),
});
export type StreamSummary = z.infer<typeof streamSummarySchema>;

const streamName = z
  .string()
  .min(1, 'a stream needs a name')
  .max(128)
  .regex(/^[^\s/?#]+$/, 'a stream name has no spaces, slashes, ? or #');
const source = z.string().min(1, 'a stream needs a source URL').max(4096);

export const configProblemSchema = z.object({
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});

/** The relay: streams with live stats, stream editing, and the config file. */
export const relayService = defineService({
  name: 'relay',
  methods: {
    listStreams: method(z.void(), z.array(streamSummarySchema)),
    addStream: method(z.object({ name: streamName, source }), z.void()),
    editStream: method(z.object({ name: streamName, source }), z.void()),
    deleteStream: method(z.object({ name: streamName }), z.void()),
    readConfig: method(z.void(), z.object({ path: z.string(), text: z.string() })),
    validateConfig: method(z.object({ text: z.string().max(1024 * 1024) }), z.object({ problems: z.array(configProblemSchema) })),
    writeConfig: method(z.object({ text: z.string().max(1024 * 1024) }), z.void()),
  },
  events: {
    /** The stream list with fresh stats, at most once a second while anything changes. */
    onStreams: z.array(streamSummarySchema),
  },
});
