import { describeType, schemaAt, type JsonSchemaNode } from './config-schema';
import { yamlPathAt } from './yaml-path-at';

export interface ConfigHover {
  /** `api.listen` */
  path: string;
  type: string;
  description?: string;
  from: number;
  to: number;
}

/** What the key under the pointer means, from the schema; nothing off a key or on an unknown one. */
export function schemaHover(schema: JsonSchemaNode, text: string, offset: number): ConfigHover | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset) === -1 ? text.length : text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd);
  const match = /^(\s*(?:-\s+)?)([^\s#:'"-][^:#]*?):(?:\s|$)/.exec(line);
  if (!match) return undefined;
  const from = lineStart + match[1]!.length;
  const to = from + match[2]!.length;
  if (offset < from || offset > to) return undefined;
  const at = yamlPathAt(text, to + 1);
  const path = [...at.path, match[2]!.trim()];
  const node = schemaAt(schema, path);
  if (!node) return undefined;
  return {
    path: path.filter((step) => step !== '[]').join('.'),
    type: describeType(node),
    ...(node.description ? { description: node.description } : {}),
    from,
    to,
  };
}
