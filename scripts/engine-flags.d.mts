/** V8 flags the engine process starts with (see engine-flags.mjs). */
export const ENGINE_V8_FLAGS: readonly string[];
