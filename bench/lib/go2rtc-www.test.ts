import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentTypeOf, PLAYER_FILES, readGo2rtcWww } from './go2rtc-www';

describe("reading go2rtc's player files from a plain folder", () => {
  const dirs: string[] = [];
  afterEach(async () => Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

  const folderWith = async (sub: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'rc-www-'));
    dirs.push(dir);
    await mkdir(join(dir, sub), { recursive: true });
    for (const file of PLAYER_FILES) await writeFile(join(dir, sub, file), `content of ${file}`);
    return dir;
  };

  it('takes a checkout (its www/ folder) or the www folder itself', async () => {
    const checkout = await folderWith('www');
    for (const dir of [checkout, join(checkout, 'www')]) {
      const files = await readGo2rtcWww(dir);
      expect([...files.keys()]).toEqual([...PLAYER_FILES]);
      expect(files.get('video-rtc.js')!.toString()).toBe('content of video-rtc.js');
    }
  });

  it('answers each file with its type', () => {
    expect(PLAYER_FILES.map(contentTypeOf)).toEqual([
      'text/html; charset=utf-8',
      'text/javascript; charset=utf-8',
      'text/javascript; charset=utf-8',
    ]);
  });
});
