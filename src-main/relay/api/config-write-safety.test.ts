import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEngine } from '../../engine/test-engine';
import { relayModule } from '../relay-module';
import { startRelay, type RelayUnderTest } from '../test/relay-test-kit';

/** A command that leaves a file behind if it ever runs: the proof that nothing ran. */
async function markerCommand(): Promise<{ dir: string; marker: string; command: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'relay-exec-marker-'));
  const marker = join(dir, 'ran');
  return { dir, marker, command: `touch ${marker}` };
}

/** Nine levels of nine aliases: a few hundred bytes that would expand to 387 million values. */
function aliasBomb(): string {
  const name = (level: number) => String.fromCharCode(97 + level);
  const levels = [`a: &a [${Array(9).fill('x').join(', ')}]`];
  for (let level = 1; level < 9; level++)
    levels.push(
      `${name(level)}: &${name(level)} [${Array(9)
        .fill(`*${name(level - 1)}`)
        .join(', ')}]`,
    );
  return `${levels.join('\n')}\n`;
}

const exists = (path: string) =>
  readFile(path).then(
    () => true,
    () => false,
  );

describe('config writes through the API and the console', () => {
  let relay: RelayUnderTest | undefined;
  let dir = '';
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${relay!.api}${path}`, { method, body, headers });
    return { status: res.status, text: await res.text() };
  };

  it('PATCH and POST /api/config refuse exec:, echo: and expr: sources with a 400 naming the stream and the scheme; nothing runs', async () => {
    const { dir: markerDir, marker, command } = await markerCommand();
    dir = markerDir;
    relay = await startRelay('  door: rtsp://127.0.0.1:1/door\n');
    const before = await readFile(relay.running.configPath, 'utf8');

    const patch = await call('PATCH', '/api/config', `streams:\n  x: exec:${command}\n`);
    expect(patch).toEqual({
      status: 400,
      text: expect.stringMatching(/^streams\.x: exec: sources run commands on this machine and are accepted only from the config file/),
    });
    const listed = await call('PATCH', '/api/config', `streams:\n  y: [rtsp://127.0.0.1:1/y, "echo:${command}"]\n`);
    expect(listed.status).toBe(400);
    expect(listed.text).toMatch(/^streams\.y: echo: /);
    const post = await call('POST', '/api/config', `${before}  z: expr:"rtsp://" + "x"\n`);
    expect(post.status).toBe(400);
    expect(post.text).toMatch(/^streams\.z: expr: /);

    // Nothing was written, nothing became a stream, and no viewer can make the command run.
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
    expect(Object.keys(JSON.parse((await call('GET', '/api/streams')).text) as object)).toEqual(['door']);
    expect((await call('GET', '/api/frame.jpeg?src=x')).status).toBe(404);
    expect(await exists(marker)).toBe(false);
  });

  it('keeps the code-running sources the file already has when a write leaves them as they are, and refuses a change to one', async () => {
    relay = await startRelay('  clip: exec:ffmpeg -re -i /videos/a.mp4 -c copy -f rtsp {output}\n');
    const file = await readFile(relay.running.configPath, 'utf8');

    // The console's editor saves the whole file with one more stream: the exec: line is unchanged.
    const saved = await call('POST', '/api/config', `${file}  yard: rtsp://127.0.0.1:1/yard\n`);
    expect(saved.status, saved.text).toBe(200);
    expect(await readFile(relay.running.configPath, 'utf8')).toContain('clip: exec:ffmpeg -re -i /videos/a.mp4');

    const changed = await call('PATCH', '/api/config', 'streams:\n  clip: exec:ffmpeg -i /etc/passwd -f rtsp {output}\n');
    expect(changed.status).toBe(400);
    expect(changed.text).toMatch(/^streams\.clip: exec: /);
    // Moving it under another name is adding it there.
    const moved = await call('PATCH', '/api/config', 'streams:\n  clip2: exec:ffmpeg -re -i /videos/a.mp4 -c copy -f rtsp {output}\n');
    expect(moved.status).toBe(400);
    expect(moved.text).toMatch(/^streams\.clip2: exec: /);
  });

  it('the console (relay.writeConfig) refuses them too, and relay.validateConfig says so before saving', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/door\n');
    const service = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const before = await readFile(relay.running.configPath, 'utf8');
    const text = `${before}  x: exec:touch /tmp/never\n`;

    expect(await service('validateConfig', { text })).toMatchObject({
      ok: true,
      value: { problems: [{ message: expect.stringMatching(/^streams\.x: exec: sources run commands/) }] },
    });
    expect(await service('writeConfig', { text })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/^streams\.x: exec: sources run commands/) },
    });
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
  });

  it('a file edited on disk may hold them (they are read at start)', async () => {
    relay = await startRelay('  clip: exec:ffmpeg -re -i /videos/a.mp4 -c copy -f rtsp {output}\n');
    expect(Object.keys(JSON.parse((await call('GET', '/api/streams')).text) as object)).toEqual(['clip']);
  });

  it('answers 400 with the reason for an alias without its anchor and for an alias bomb, and writes nothing', async () => {
    relay = await startRelay();
    const before = await readFile(relay.running.configPath, 'utf8');
    const unresolved = await call('PATCH', '/api/config', 'streams:\n  a: *nowhere\n');
    expect(unresolved.status).toBe(400);
    expect(unresolved.text).toMatch(/invalid YAML: Unresolved alias.*nowhere/);

    const bomb = aliasBomb();
    for (const method of ['POST', 'PATCH']) {
      const answer = await call(method, '/api/config', bomb);
      expect(answer.status, method).toBe(400);
      expect(answer.text).toMatch(/aliases expand too much/);
    }
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
    // The server is still there and answers.
    expect((await call('GET', '/api')).status).toBe(200);
  });

  it('a config file with an alias bomb does not start: the error says why and names the file', async () => {
    await expect(startTestEngine({ modules: [relayModule], config: aliasBomb() })).rejects.toThrow(
      /config .*: invalid YAML: aliases expand too much/,
    );
  });
});
