import type { z } from 'zod';
import { nearestName } from '../nearest-name.mjs';

type Schema = z.core.$ZodType;

/** A key in the config file that no schema knows, and the known key it probably meant. */
export interface UnknownKey {
  /** Dotted path as written in the file: `api.lisen`. */
  path: string;
  /** Dotted path of the nearest known key, when one is close: `api.listen`. */
  suggestion?: string;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The schema under `.optional()`, `.default()`, `.pipe()` and the like. */
function unwrap(schema: Schema): Schema {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: Schema; in?: Schema };
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

/** Object and array schemas among `schemas`, a union counting as each of its options. */
function flatten(schemas: readonly Schema[]): Schema[] {
  return schemas.map(unwrap).flatMap((schema) => {
    const def = schema._zod.def as { type: string; options?: Schema[] };
    return def.type === 'union' && def.options ? flatten(def.options) : [schema];
  });
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Walks the parsed config beside the zod schemas that read it and lists every key none of
 * them declares. Several schemas may read one section (the directory client and the directory
 * emulator both read `directory:`); a key is known if any of them declares it. A record (the
 * stream names under `streams:`) accepts any key.
 */
export function findUnknownKeys(value: unknown, schemas: readonly Schema[], path: readonly string[] = []): UnknownKey[] {
  const flat = flatten(schemas);
  if (Array.isArray(value)) {
    const elements = flat.flatMap((schema) => {
      const def = schema._zod.def as { type: string; element?: Schema };
      return def.type === 'array' && def.element ? [def.element] : [];
    });
    return elements.length === 0 ? [] : value.flatMap((item, i) => findUnknownKeys(item, elements, [...path, String(i)]));
  }
  if (!isMapping(value)) return [];
  const shapes = flat.flatMap((schema) => {
    const def = schema._zod.def as { type: string; shape?: Record<string, Schema> };
    return def.type === 'object' && def.shape ? [def.shape] : [];
  });
  if (shapes.length === 0) return [];
  const known = new Set(shapes.flatMap((shape) => Object.keys(shape)));
  return Object.entries(value).flatMap(([key, child]) => {
    if (!known.has(key)) {
      const near = nearestName(key, known);
      return [{ path: [...path, key].join('.'), ...(near ? { suggestion: [...path, near].join('.') } : {}) }];
    }
    const childSchemas = shapes.flatMap((shape) => (shape[key] ? [shape[key]] : []));
    return findUnknownKeys(child, childSchemas, [...path, key]);
  });
}

/** One warning line per unknown key, naming the file and the key it probably meant. */
export function unknownKeyWarnings(config: unknown, schemas: readonly Schema[], file: string): string[] {
  return findUnknownKeys(config, schemas).map(
    ({ path, suggestion }) =>
      `config ${file}: unknown key ${path}${suggestion ? ` (did you mean ${suggestion}?)` : ''}; Relay Console does not read it`,
  );
}
