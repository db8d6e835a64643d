import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Where the key at a dotted path (`api.listen`, `streams.door`) is written in YAML text, as a
 * 1-based line and column: the editor then marks a problem where the user has to fix it. The
 * deepest part of the path that exists is found when the rest does not.
 */
export function locateYamlPath(text: string, path: readonly string[]): TextPosition | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  let node: unknown = doc.contents;
  let found: number | undefined;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => String((item.key as Node | null)?.toJSON?.() ?? item.key) === part);
      if (!pair) break;
      found = (pair.key as Node).range?.[0];
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(part)) {
      const item = node.items[Number(part)] as Node | undefined;
      if (!item) break;
      found = item.range?.[0];
      node = item;
    } else {
      break;
    }
  }
  if (found === undefined) return undefined;
  const { line, col } = lineCounter.linePos(found);
  return { line, column: col };
}

/** The dotted path a problem message starts with (`streams.door: ...`, `config x.yaml: api.listen: ...`). */
export function pathOfProblem(message: string): string[] | undefined {
  const match = /^(?:config [^:]+: )?(?:unknown key )?([A-Za-z_][\w-]*(?:\.[\w-]+)*)(?::| \()/.exec(message);
  return match?.[1]?.split('.');
}
