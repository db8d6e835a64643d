import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Bundles live in <root>/dist/main; package.json and dist/renderer sit beside them in a
 * checkout and inside the packaged app alike.
 */
export function appRootFrom(moduleUrl: string): string {
  return join(dirname(fileURLToPath(moduleUrl)), '..', '..');
}

export function readAppVersion(appRoot: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
