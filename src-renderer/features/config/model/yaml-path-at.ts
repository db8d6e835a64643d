/**
 * Where the cursor is in a YAML config, by indentation alone: the keys above it and whether it
 * is on a key or a value. Indentation, not a parser, because the text is half-typed (and so
 * often not valid YAML) exactly when completion is asked for.
 */
export interface YamlPosition {
  /** Keys from the root to the mapping the cursor is in; `[]` marks a list item. */
  path: string[];
  /** `key`: typing a key of that mapping; `value`: typing the value of `key`. */
  kind: 'key' | 'value';
  /** The key whose value is being typed (kind `value`). */
  key?: string;
  /** What is typed so far of the word under the cursor, and where it starts. */
  prefix: string;
  from: number;
}

const KEY_LINE = /^(\s*)(-\s+)?([^\s#:'"-][^:#]*?|"[^"]*"|'[^']*'):(?:\s|$)/;
const indentOf = (line: string) => /^\s*/.exec(line)![0].length;
const unquote = (key: string) => key.replace(/^["'](.*)["']$/, '$1').trim();

/** The keys of the mappings that enclose a line indented by `indent`, nearest last. */
function ancestors(lines: string[], indent: number): string[] {
  const path: string[] = [];
  let within = indent;
  for (let i = lines.length - 1; i >= 0 && within > 0; i -= 1) {
    const line = lines[i]!;
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const lineIndent = indentOf(line);
    const match = KEY_LINE.exec(line);
    const dash = match?.[2] ?? (/^\s*-\s/.test(line) ? '- ' : '');
    const keyIndent = lineIndent + dash.length;
    if (dash && keyIndent <= within && lineIndent < within) {
      // A list item: a key written on its dash line belongs to the item when deeper than it.
      if (match && keyIndent < within) path.unshift(unquote(match[3]!));
      path.unshift('[]');
      within = lineIndent;
      continue;
    }
    if (match && lineIndent < within) {
      path.unshift(unquote(match[3]!));
      within = lineIndent;
    }
  }
  return path;
}

export function yamlPathAt(text: string, offset: number): YamlPosition {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  const current = lines.pop()!;
  const lineStart = offset - current.length;

  const keyValue = /^(\s*)(-\s+)?([^\s#:'"-][^:#]*?):\s*(.*)$/.exec(current);
  if (keyValue) {
    const indent = keyValue[1]!.length + (keyValue[2]?.length ?? 0);
    const parents = keyValue[2] ? [...ancestors(lines, keyValue[1]!.length), '[]'] : ancestors(lines, indent);
    const prefix = keyValue[4]!.replace(/^["']/, '');
    return { path: parents, kind: 'value', key: unquote(keyValue[3]!), prefix, from: offset - prefix.length };
  }
  const partialKey = /^(\s*)(-\s+)?([\w.-]*)$/.exec(current);
  const indent = partialKey ? partialKey[1]!.length + (partialKey[2]?.length ?? 0) : indentOf(current);
  const prefix = partialKey?.[3] ?? '';
  const parents = partialKey?.[2] ? [...ancestors(lines, partialKey[1]!.length), '[]'] : ancestors(lines, indent);
  return { path: parents, kind: 'key', prefix, from: lineStart + current.length - prefix.length };
}
