import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A declaration has one doc comment: a second one stacked on it is either the doc of something
// else left behind when code moved, or an older wording left in place, and the editor shows only
// the last one.
const root = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src-main', 'src-renderer', 'src-shared', 'scripts', 'e2e', 'bench'];
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const STACKED = /\/\*\*(?:(?!\*\/)[\s\S])*\*\/[ \t]*\r?\n[ \t]*\/\*\*/g;

function sources(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, found);
    else if (SOURCE.test(entry.name)) found.push(path);
  }
  return found;
}

/** `file:line` of each doc comment followed straight away by another. */
function stackedDocComments(text: string, name: string): string[] {
  return [...text.matchAll(STACKED)].map((m) => `${name}:${text.slice(0, m.index).split('\n').length}`);
}

describe('doc comments', () => {
  it('finds a doc comment stacked on another, and not one that documents a declaration of its own', () => {
    expect(stackedDocComments('/** old */\n/** new */\nexport const a = 1;\n', 'x.ts')).toEqual(['x.ts:1']);
    expect(stackedDocComments('const a = 1;\n/**\n * one\n */\n  /** two */\nf();\n', 'x.ts')).toEqual(['x.ts:2']);
    expect(stackedDocComments('/** a */\nconst a = 1;\n/** b */\nconst b = 2;\n', 'x.ts')).toEqual([]);
  });

  it('gives each declaration one', () => {
    const stacked = FOLDERS.flatMap((folder) => sources(join(root, folder))).flatMap((file) =>
      stackedDocComments(readFileSync(file, 'utf8'), relative(root, file)),
    );
    expect(stacked).toEqual([]);
  });
});
