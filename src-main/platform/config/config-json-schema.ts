import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const isObjectSchema = (schema: unknown): schema is JsonSchema & { properties?: Record<string, JsonSchema> } =>
  typeof schema === 'object' && schema !== null && (schema as JsonSchema).type === 'object';

/**
 * Two JSON Schemas of one section read by different modules (the directory client and the
 * directory emulator both read `directory:`) as one: properties merged key by key, the first
 * description kept, nothing required (each module has its own defaults).
 */
function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  if (!isObjectSchema(a) || !isObjectSchema(b)) return a;
  const properties: Record<string, JsonSchema> = { ...(a.properties ?? {}) };
  for (const [key, value] of Object.entries(b.properties ?? {})) {
    properties[key] = properties[key] ? mergeSchemas(properties[key], value) : value;
  }
  return { ...b, ...a, properties };
}

/** Drops `required` everywhere: every section of the file has defaults, so none must be written. */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  const entries = Object.entries(schema as JsonSchema).filter(([key]) => key !== 'required' && key !== '$schema');
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutRequired(value)]));
}

/**
 * One JSON Schema of the whole config file, generated from the zod schemas the engine reads it
 * with (modules.ts), so the console's editor completes and explains exactly the keys the engine
 * knows. Refinements JSON Schema cannot say (a listen address check) stay with the engine's
 * validation, which the editor also runs.
 */
export function configJsonSchema(schemas: readonly z.core.$ZodType[]): JsonSchema {
  let merged: JsonSchema = { type: 'object', properties: {} };
  for (const schema of schemas) {
    const json = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
    merged = mergeSchemas(merged, withoutRequired(json) as JsonSchema);
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Relay Console configuration', ...merged };
}
