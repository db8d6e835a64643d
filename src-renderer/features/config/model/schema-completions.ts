import { describeType, schemaAt, type JsonSchemaNode } from './config-schema';
import type { YamlPosition } from './yaml-path-at';

export interface ConfigCompletion {
  label: string;
  /** What is inserted: `key: ` for a key, the value itself for a value. */
  apply: string;
  type: 'property' | 'enum' | 'keyword';
  detail: string;
  info?: string;
}

/**
 * What may be typed at a position: the keys of the mapping the cursor is in (minus those already
 * written), or the values a key allows (its enum, true/false).
 */
export function schemaCompletions(schema: JsonSchemaNode, at: YamlPosition, existingKeys: readonly string[] = []): ConfigCompletion[] {
  if (at.kind === 'key') {
    const node = schemaAt(schema, at.path);
    const properties = node && ((node.anyOf ?? node.oneOf)?.find((o) => o.type === 'object') ?? node).properties;
    return Object.entries(properties ?? {})
      .filter(([key]) => !existingKeys.includes(key) && key.startsWith(at.prefix))
      .map(([key, child]) => ({
        label: key,
        apply: child.type === 'object' ? `${key}:\n` : `${key}: `,
        type: 'property' as const,
        detail: describeType(child),
        ...(child.description ? { info: child.description } : {}),
      }));
  }
  const node = at.key ? schemaAt(schema, [...at.path, at.key]) : undefined;
  if (!node) return [];
  const values = node.enum ?? (node.type === 'boolean' ? [true, false] : []);
  return values
    .map((value) => String(value))
    .filter((value) => value.startsWith(at.prefix))
    .map((value) => ({
      label: value,
      apply: value,
      type: node.enum ? ('enum' as const) : ('keyword' as const),
      detail: describeType(node),
      ...(node.description ? { info: node.description } : {}),
    }));
}

/** Keys already written in the mapping the cursor is in, so completion does not offer them twice. */
export function siblingKeys(text: string, offset: number): string[] {
  const lines = text.split('\n');
  let index = text.slice(0, offset).split('\n').length - 1;
  const current = lines[index] ?? '';
  const indent = /^\s*/.exec(current)![0].length;
  const keys: string[] = [];
  const collect = (line: string) => {
    const match = /^(\s*)([^\s#:'"-][^:#]*?):(?:\s|$)/.exec(line);
    if (match && match[1]!.length === indent) keys.push(match[2]!.trim());
  };
  const within = (line: string) => !line.trim() || line.trim().startsWith('#') || /^\s*/.exec(line)![0].length >= indent;
  for (let i = index - 1; i >= 0 && within(lines[i]!); i -= 1) collect(lines[i]!);
  for (index += 1; index < lines.length && within(lines[index]!); index += 1) collect(lines[index]!);
  return keys;
}
