import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMap } from 'yaml';
import { openConfigStore } from './config-store';
import { ConfigSyntaxError } from './errors';
import { substituteEnv } from './env-substitution';

describe('config store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rc-config-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('creates a commented default file on first run', async () => {
    const path = join(dir, 'nested', 'relay-console.yaml');
    const store = await openConfigStore({ path, createIfMissing: true, env: {} });
    const text = await readFile(path, 'utf8');
    expect(text).toContain('# Relay Console configuration.');
    expect(text).toContain('listen: 127.0.0.1:1984');
    expect(store.effective()).toMatchObject({ api: { listen: '127.0.0.1:1984' }, log: { level: 'info' } });
  });

  it('refuses to invent a file when asked not to', async () => {
    await expect(openConfigStore({ path: join(dir, 'missing.yaml') })).rejects.toThrow(/not found/);
  });

  it('substitutes ${ENV} and ${ENV:default} in effective values but keeps the raw text', async () => {
    const path = join(dir, 'c.yaml');
    await writeFile(path, 'api:\n  listen: ${HOST:127.0.0.1}:${PORT}\n  password: ${SECRET}\n');
    const store = await openConfigStore({ path, env: { PORT: '2000' } });
    expect(store.section('api')).toEqual({ listen: '127.0.0.1:2000', password: '${SECRET}' });
    expect(store.raw()).toContain('${PORT}');
    expect(substituteEnv('${A:x:y}', {})).toBe('x:y');
  });

  it('answers invalid YAML with line and column and leaves the file untouched', async () => {
    const path = join(dir, 'c.yaml');
    const original = '# keep me\napi:\n  listen: 127.0.0.1:1984\n';
    await writeFile(path, original);
    const store = await openConfigStore({ path, env: {} });
    const error = await store.replace('api:\n  listen: [unclosed\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigSyntaxError);
    expect((error as ConfigSyntaxError).line).toBeGreaterThan(0);
    expect((error as Error).message).toMatch(/line \d+, column \d+/);
    await expect(store.replace('- just\n- a list\n')).rejects.toThrow(/top level must be a mapping/);
    expect(await readFile(path, 'utf8')).toBe(original);
    expect(store.raw()).toBe(original);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('edits keep comments and key order, and concurrent edits all land', async () => {
    const path = join(dir, 'c.yaml');
    await writeFile(path, '# top comment\napi:\n  listen: 127.0.0.1:1984 # where\nstreams:\n  a: rtsp://a\n');
    const store = await openConfigStore({ path, env: {} });
    const changes: number[] = [];
    store.onChange(() => changes.push(1));
    await Promise.all(
      ['b', 'c', 'd'].map((name) =>
        store.update((doc) => {
          const streams = doc.get('streams');
          if (isMap(streams)) streams.set(name, `rtsp://${name}`);
        }),
      ),
    );
    const text = await readFile(path, 'utf8');
    expect(text).toContain('# top comment');
    expect(text).toContain('# where');
    expect(text.indexOf('api:')).toBeLessThan(text.indexOf('streams:'));
    expect(store.section('streams')).toEqual({ a: 'rtsp://a', b: 'rtsp://b', c: 'rtsp://c', d: 'rtsp://d' });
    expect(changes).toHaveLength(3);
  });
});
