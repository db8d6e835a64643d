import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders from the asking module up to the project's root, at most: a folder of src-main from source, dist/main bundled. */
const MAX_LEVELS = 6;

/**
 * A native addon that scripts/build-native.mjs put in dist/native (in the project, or the
 * packaged app), looked for from the module asking (`moduleUrl`: its import.meta.url) upwards,
 * and loaded. Undefined where it was not built (not Linux, no C compiler at install) or does not
 * load (built for another system, in a copied tree): its module then does without, as it must
 * where there is no addon at all.
 */
export function loadBuiltAddon<T>(file: string, moduleUrl: string): T | undefined {
  const wanted = join('dist', 'native', file);
  let dir = dirname(fileURLToPath(moduleUrl));
  for (let level = 0; level <= MAX_LEVELS; level++, dir = dirname(dir)) {
    const path = join(dir, wanted);
    if (!existsSync(path)) continue;
    try {
      return createRequire(moduleUrl)(path) as T;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
