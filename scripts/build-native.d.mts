/**
 * Builds the native addons whose output is missing or older than their sources; one entry per
 * addon: 'built', 'up to date', or why it was skipped. Throws with the compiler's message.
 */
export function buildNative(options?: { root?: string; force?: boolean }): string[];
