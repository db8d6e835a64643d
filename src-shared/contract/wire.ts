import { z } from 'zod';
import { CONTRACT_ERROR_CODES, type ContractErrorCode } from './error-codes';

/** A code this side does not know (a newer engine) reads as `internal`, keeping its message. */
const errorCodeSchema = z.enum(Object.keys(CONTRACT_ERROR_CODES) as [ContractErrorCode, ...ContractErrorCode[]]).catch('internal');

/**
 * Frames of the contract over a message channel (WebSocket in headless mode). Electron IPC
 * carries the same call/event shapes through its own invoke/send, so both transports agree.
 */
const resultSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown().optional() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: errorCodeSchema, message: z.string(), details: z.unknown().optional() }),
  }),
]);

export const clientFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('call'),
    id: z.number().int().nonnegative(),
    service: z.string().min(1).max(64),
    method: z.string().min(1).max(64),
    input: z.unknown().optional(),
  }),
  z.object({ type: z.literal('subscribe'), service: z.string().min(1).max(64), event: z.string().regex(/^on[A-Z]\w*$/) }),
  z.object({ type: z.literal('unsubscribe'), service: z.string().min(1).max(64), event: z.string().regex(/^on[A-Z]\w*$/) }),
]);

export const serverFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: z.number().int().nonnegative(), result: resultSchema }),
  z.object({ type: z.literal('event'), service: z.string(), event: z.string(), payload: z.unknown().optional() }),
]);

export type ClientFrame = z.infer<typeof clientFrameSchema>;
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/** WebSocket path of the console contract on the API server. */
export const CONSOLE_SOCKET_PATH = '/console/ws';
/** Subprotocol names: the token travels as the second one so it never appears in a URL or log. */
export const CONSOLE_SOCKET_PROTOCOL = 'relay-console.v1';
export const tokenProtocol = (token: string): string => `token.${token}`;
/** The page that main serves carries the session token in this meta tag. */
export const SESSION_TOKEN_META = 'relay-console-session';
/**
 * The stored colour theme (`system`, `light` or `dark`), written into the page by main so the
 * first paint already has it, before the contract is connected.
 */
export const COLOR_SCHEME_META = 'relay-console-color-scheme';

/** The channel names Electron's preload and main agree on. */
export const IPC_CALL_CHANNEL = 'relay-console:call';
export const IPC_SUBSCRIBE_CHANNEL = 'relay-console:subscribe';
export const IPC_UNSUBSCRIBE_CHANNEL = 'relay-console:unsubscribe';
export const IPC_EVENT_CHANNEL = 'relay-console:event';
