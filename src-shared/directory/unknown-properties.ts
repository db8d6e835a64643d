import { z } from 'zod';

/** A property the schema does not know, at a path such as `requestApprovalSettings.stages[0].foo`. */
export interface UnknownProperty {
  path: Array<string | number>;
  key: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault)
      current = current.unwrap() as z.ZodType;
    else return current;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Nested objects of the contract strip what they do not know, so a misspelt or beta-only
 * property would vanish silently on the way to Graph (which refuses it with RequestBodyRead).
 * This walks a value along its schema and lists such properties so they can be reported
 * instead. OData annotations (`@odata.*`) are allowed anywhere; objects declared loose and
 * strict ones (zod reports those itself) are not listed; `skip` names keys not to descend into.
 */
export function findUnknownProperties(schema: z.ZodType, value: unknown, skip: ReadonlySet<string> = new Set()): UnknownProperty[] {
  const found: UnknownProperty[] = [];
  const walk = (node: z.ZodType, current: unknown, path: Array<string | number>) => {
    const type = unwrap(node);
    if (type instanceof z.ZodArray) {
      if (Array.isArray(current)) current.forEach((item, index) => walk(type.element as z.ZodType, item, [...path, index]));
      return;
    }
    if (type instanceof z.ZodDiscriminatedUnion) {
      if (!isPlainObject(current)) return;
      const discriminator = (type.def as { discriminator: string }).discriminator;
      const option = (type.options as z.ZodType[]).find((candidate) => {
        const literal = candidate instanceof z.ZodObject ? (candidate.shape as Record<string, z.ZodType>)[discriminator] : undefined;
        return literal instanceof z.ZodLiteral && literal.values.has(current[discriminator] as never);
      });
      if (option) walk(option, current, path);
      return;
    }
    if (!(type instanceof z.ZodObject) || !isPlainObject(current)) return;
    const shape = type.shape as Record<string, z.ZodType>;
    const checksUnknown = type.def.catchall === undefined; // strip mode: unknown keys would vanish
    for (const [key, child] of Object.entries(current)) {
      if (key.startsWith('@odata.')) continue;
      const childSchema = shape[key];
      if (!childSchema) {
        if (checksUnknown) found.push({ path, key });
        continue;
      }
      if (!skip.has(key)) walk(childSchema, child, [...path, key]);
    }
  };
  walk(schema, value, []);
  return found;
}
