import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ALIAS_FOLDERS, viteAliases } from './aliases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// TypeScript, esbuild, madge and Playwright resolve the aliases from tsconfig.base.json; Vite and
// vitest from scripts/aliases.mjs. A name in one and not the other builds in one tool and fails in
// the next, so the two must say the same.
describe('import aliases', () => {
  it('tsconfig.base.json maps every alias of scripts/aliases.mjs, and nothing else, to the same folder', () => {
    const parsed = ts.parseConfigFileTextToJson('tsconfig.base.json', readFileSync(`${root}/tsconfig.base.json`, 'utf8'));
    const paths = (parsed.config as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
    expect(paths).toEqual(Object.fromEntries(Object.entries(ALIAS_FOLDERS).map(([alias, folder]) => [`${alias}/*`, [`./${folder}/*`]])));
  });

  it('gives Vite each folder as an absolute path under the project', () => {
    expect(viteAliases()).toEqual(Object.entries(ALIAS_FOLDERS).map(([find, folder]) => ({ find, replacement: `${root}${folder}` })));
  });

  it('resolves an alias to the module a relative path reaches', async () => {
    const byAlias = await import('@shared/contract/result');
    const byPath = await import('../src-shared/contract/result');
    expect(byAlias.unwrap).toBe(byPath.unwrap);
  });
});
