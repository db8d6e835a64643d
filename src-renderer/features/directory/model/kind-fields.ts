import type { z } from 'zod';
import { questionSchema, subjectSetSchema } from '@shared/contract/directory';

// A question or an approver can change kind in the form (text → multiple choice, a user → the
// requestor's manager). Fields of the old kind may linger in the form's values for a moment
// after the switch (a field being unmounted writes its value back); they are no part of what
// the person asked for, and Graph refuses unknown properties. So before checking or sending,
// each object with an @odata.type keeps only the properties of its kind.

const KIND_FIELDS = new Map<string, ReadonlySet<string>>(
  [...subjectSetSchema.options, ...questionSchema.options].map((option) => {
    const shape = (option as z.ZodObject).shape as Record<string, unknown>;
    const literal = (shape['@odata.type'] as { value: string }).value;
    return [literal, new Set(Object.keys(shape))];
  }),
);

/** The values with every typed object reduced to the properties of its kind (a copy; the input is untouched). */
export function withoutOtherKindFields<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withoutOtherKindFields(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const allowed = typeof record['@odata.type'] === 'string' ? KIND_FIELDS.get(record['@odata.type']) : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(record)) if (!allowed || allowed.has(key)) out[key] = withoutOtherKindFields(child);
  return out as T;
}
