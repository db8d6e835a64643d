// The import aliases, one per layer: `@main/x` is src-main/x, `@renderer/x` src-renderer/x and
// `@shared/x` src-shared/x. tsconfig.base.json's `paths` says the same for TypeScript, esbuild,
// madge, knip and Playwright; Vite (the renderer bundle, vite-node) and vitest take them from here.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Alias → the folder it names, relative to the project root. */
export const ALIAS_FOLDERS = { '@main': 'src-main', '@renderer': 'src-renderer', '@shared': 'src-shared' };

/** The aliases as Vite's `resolve.alias` takes them (`@main` matches `@main` and `@main/...`). */
export const viteAliases = () => Object.entries(ALIAS_FOLDERS).map(([find, folder]) => ({ find, replacement: join(root, folder) }));
