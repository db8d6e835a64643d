/** V8 flags the engine process starts with (see engine-flags.mjs). */
export const ENGINE_V8_FLAGS: readonly string[];
/** glibc allocator settings the engine process starts with (see engine-flags.mjs). */
export const ENGINE_MALLOC_ENV: Readonly<Record<string, string>>;
/** The environment to spawn the engine with: the caller's, with the allocator settings it has not set itself. */
export function engineEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
