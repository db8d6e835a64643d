export interface ConsoleCommandLine {
  config?: string;
  listen?: string;
  headless?: boolean;
  help?: boolean;
}
/** A command line that cannot be obeyed; the message says what to type instead. */
export class UsageError extends Error {}
export function parseCommandLine(args: string[], options?: { strict?: boolean }): ConsoleCommandLine;
/** What `--help` prints. */
export function helpText(): string;
