import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The player pages a benchmark serves, read from go2rtc's own `www` at run time (never copied here). */
export const PLAYER_FILES = ['stream.html', 'video-stream.js', 'video-rtc.js'] as const;

/** What a served file is, by its extension. */
export function contentTypeOf(file: string): string {
  if (file.endsWith('.html')) return 'text/html; charset=utf-8';
  if (file.endsWith('.js')) return 'text/javascript; charset=utf-8';
  return 'application/octet-stream';
}

/**
 * Reads go2rtc's player files from `dir`: a git directory of a go2rtc repository (bare or not:
 * `git show HEAD:www/<file>`, so a mirror without a work tree will do), a checkout with a
 * `www/` folder, or the `www` folder itself. Names the path it could not read in the error.
 */
export async function readGo2rtcWww(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const plain = [join(dir, 'www'), dir].find((folder) => existsSync(join(folder, 'stream.html')));
  for (const file of PLAYER_FILES) {
    if (plain) {
      files.set(file, await readFile(join(plain, file)));
      continue;
    }
    try {
      const { stdout } = await run('git', ['-C', dir, 'show', `HEAD:www/${file}`], { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024 });
      files.set(file, stdout);
    } catch (error) {
      throw new Error(
        `cannot read go2rtc's www/${file} from ${dir} (a go2rtc git directory, a checkout or its www folder): ${(error as Error).message.split('\n')[0]}`,
      );
    }
  }
  return files;
}
