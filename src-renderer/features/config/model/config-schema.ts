/** The few JSON Schema words the config's generated schema uses (see config-json-schema.ts in main). */
export interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: JsonSchemaNode | boolean;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
}

/** The object or array form of a union, where keys or items can be found. */
function structured(node: JsonSchemaNode, want: 'object' | 'array'): JsonSchemaNode {
  const options = node.anyOf ?? node.oneOf;
  return options?.find((option) => option.type === want) ?? node;
}

/** The schema of the value at `path` (`[]` steps into list items); undefined where nothing is known. */
export function schemaAt(root: JsonSchemaNode, path: readonly string[]): JsonSchemaNode | undefined {
  let node: JsonSchemaNode | undefined = root;
  for (const step of path) {
    if (!node) return undefined;
    if (step === '[]') {
      node = structured(node, 'array').items;
      continue;
    }
    const object = structured(node, 'object');
    node = object.properties?.[step] ?? (typeof object.additionalProperties === 'object' ? object.additionalProperties : undefined);
  }
  return node;
}

/** One line on what a key takes: its type, allowed values and default. */
export function describeType(node: JsonSchemaNode): string {
  const options = node.anyOf ?? node.oneOf;
  const type = node.enum
    ? node.enum.map((v) => JSON.stringify(v)).join(' | ')
    : options
      ? options.map((o) => o.type ?? 'any').join(' or ')
      : [node.type ?? 'any'].flat().join(' or ');
  const fallback =
    node.default !== undefined && !(typeof node.default === 'object' && node.default !== null)
      ? ` (default ${JSON.stringify(node.default)})`
      : '';
  return `${type}${fallback}`;
}
