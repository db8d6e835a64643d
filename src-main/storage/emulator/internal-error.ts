import { KodoError } from './kodo-error';

/** Kodo's status for a failure inside the service (not the client's doing). */
export const INTERNAL_ERROR = 599;

/** A Node system error (fs, sockets): its message names the paths it touched. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && ('syscall' in error || 'path' in error);
}

/**
 * What a client is told of an unexpected failure (file system, database): its error code at
 * most. Such messages carry the server's absolute paths (`EMLINK: too many links, link
 * '/srv/relay/storage/objects/3f2a' -> ...`), which no answer may show; the whole error goes to the log.
 */
export function internalErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? `internal error: ${code}` : 'internal error';
}

/**
 * The message stored for a client to read later (a pfop item, an async fetch): a Kodo answer or
 * a message the emulator wrote as it is, a system error reduced to its code.
 */
export function publicMessage(error: unknown): string {
  if (error instanceof KodoError) return error.message;
  if (isSystemError(error)) return internalErrorMessage(error);
  return error instanceof Error ? error.message : String(error);
}
