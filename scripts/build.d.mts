/** Builds the renderer and every main-process entry into dist/. */
export function buildAll(options?: { quiet?: boolean }): Promise<void>;
/** Builds the main-process entries only; resolves with their names (dist/main/<name>.js). */
export function buildMain(): Promise<string[]>;
