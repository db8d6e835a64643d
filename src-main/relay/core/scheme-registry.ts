import type { SchemeHandler } from './producer';

/** Source schemes by name; a protocol joins the relay by registering here, never by editing the core. */
export interface SchemeRegistry {
  register(scheme: string, handler: SchemeHandler): void;
  /** The handler for a source URL (`rtsp://...` → rtsp, `ffmpeg:...` → ffmpeg). */
  resolve(source: string): SchemeHandler | undefined;
  schemes(): string[];
}

export function schemeOf(source: string): string {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(source.trim());
  return match ? match[1]!.toLowerCase() : '';
}

export function createSchemeRegistry(): SchemeRegistry {
  const handlers = new Map<string, SchemeHandler>();
  return {
    register(scheme, handler) {
      if (handlers.has(scheme)) throw new Error(`scheme ${scheme} registered twice`);
      handlers.set(scheme, handler);
    },
    resolve: (source) => handlers.get(schemeOf(source)),
    schemes: () => [...handlers.keys()].sort(),
  };
}
