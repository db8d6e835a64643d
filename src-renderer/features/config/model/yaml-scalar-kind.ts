export type ScalarKind = 'number' | 'boolean' | 'null' | 'string';

// YAML 1.2's core schema (what the relay's YAML reader resolves plain scalars with).
const NULL = /^(~|null|Null|NULL)$/;
const BOOLEAN = /^(true|True|TRUE|false|False|FALSE)$/;
const NUMBER =
  /^([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$/;

/**
 * What a plain (unquoted) YAML value is read as, so the editor colours `8554` and `true` apart
 * from text: the YAML grammar gives every plain value the same token.
 */
export function plainScalarKind(text: string): ScalarKind {
  const value = text.trim();
  if (NULL.test(value)) return 'null';
  if (BOOLEAN.test(value)) return 'boolean';
  if (NUMBER.test(value)) return 'number';
  return 'string';
}
