import { z } from 'zod';
import { defineService, method } from './define-service';

// What the directory client sent to Graph, one entry per HTTP exchange (a retry is an entry of
// its own), so an admin sees what went over the wire. URLs come with secrets removed.

const graphExchangeSchema = z.object({
  /** Grows by one per exchange; the renderer keys rows by it. */
  seq: z.number().int().nonnegative(),
  at: z.string(),
  /** Which part of the console asked: the directory pages or the calendar sync. */
  source: z.enum(['directory', 'calendar']),
  method: z.string(),
  /** The URL with delta/skip tokens and any other secrets replaced by an ellipsis. */
  url: z.string(),
  /** HTTP status; 0 when Graph could not be reached. */
  status: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  /** Graph's `request-id`, what Microsoft support asks for. */
  requestId: z.string().nullable(),
  clientRequestId: z.string(),
  /** Graph's error code for a failed exchange. */
  errorCode: z.string().nullable(),
});
export type GraphExchange = z.infer<typeof graphExchangeSchema>;

export const graphTrafficService = defineService({
  name: 'graphTraffic',
  methods: {
    /** The most recent exchanges, newest first. */
    recent: method(z.object({ limit: z.number().int().min(1).max(1000).default(200) }), z.array(graphExchangeSchema)),
    clear: method(z.void(), z.object({ cleared: z.number().int().nonnegative() })),
  },
  events: {
    onExchange: graphExchangeSchema,
  },
});
