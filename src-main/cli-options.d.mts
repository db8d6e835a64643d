export interface ConsoleOptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** How the value is written in the help, e.g. `<file>`. */
  value?: string;
  help: string;
}
export const CONSOLE_OPTIONS: Readonly<Record<'config' | 'listen' | 'headless' | 'help', ConsoleOptionSpec>>;
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
