// Resumable upload v1 as SDKs that send chunks speak it (the Go SDK's resume uploader, the mobile
// SDKs): mkblk/<blockSize> with the first chunk, bput/<ctx>/<offset> with each next one, every
// answer checked for the chunk's crc32, then mkfile with the last ctx of each block. The Node and
// PHP SDKs send whole blocks through mkblk alone (upload.sdk.test.ts), so this is raw HTTP shaped
// as those SDKs send it.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kodoEtag } from './encoding';
import { httpGet, startTestEmulator, uploadToken, type TestEmulator } from './test-support';

const MiB = 1024 * 1024;
const BLOCK = 4 * MiB;

let env: TestEmulator;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kodo-v1-'));
  env = await startTestEmulator({ dataDir });
});

afterAll(async () => {
  await env.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface ChunkReply {
  ctx: string;
  checksum: string;
  crc32: number;
  offset: number;
  host: string;
  expired_at: number;
}

async function post(path: string, token: string, body: Buffer | string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`http://${env.host}${path}`, {
    method: 'POST',
    headers: { Authorization: `UpToken ${token}`, 'Content-Type': 'application/octet-stream' },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: response.status, json: await response.json() };
}

/** One chunk as an SDK sends it: the reply must be 200 and carry the chunk's crc32 and the next offset. */
async function chunk(path: string, token: string, data: Buffer, offsetAfter: number): Promise<ChunkReply> {
  const reply = await post(path, token, data);
  expect(reply.status).toBe(200);
  const body = reply.json as ChunkReply;
  expect(body).toMatchObject({ crc32: crc32(data), offset: offsetAfter, host: `http://${env.host}` });
  expect(body.ctx).toMatch(/^\S+$/);
  return body;
}

/** A whole block in chunks of `chunkSize`: mkblk with the first, bput with the rest; the last ctx. */
async function putBlock(token: string, block: Buffer, chunkSize: number): Promise<string> {
  let reply = await chunk(`/mkblk/${block.length}`, token, block.subarray(0, chunkSize), Math.min(chunkSize, block.length));
  for (let offset = chunkSize; offset < block.length; offset += chunkSize) {
    const piece = block.subarray(offset, offset + chunkSize);
    reply = await chunk(`/bput/${reply.ctx}/${offset}`, token, piece, offset + piece.length);
  }
  return reply.ctx;
}

const b64 = (text: string): string => Buffer.from(text).toString('base64url');
const blockFiles = (): string[] => readdirSync(join(dataDir, 'storage', 'parts')).filter((f) => f.startsWith('blk-'));

describe('resumable upload v1 in chunks', () => {
  it('mkblk takes a first chunk smaller than its block, bput the rest; mkfile makes the object', async () => {
    const token = uploadToken({ scope: 'pub:chunked.bin' });
    const data = randomBytes(BLOCK + 1.5 * MiB);
    const ctxs = [await putBlock(token, data.subarray(0, BLOCK), MiB), await putBlock(token, data.subarray(BLOCK), MiB)];
    const made = await post(`/mkfile/${data.length}/key/${b64('chunked.bin')}/fname/${b64('chunked.bin')}`, token, ctxs.join(','));
    expect(made).toEqual({ status: 200, json: { hash: kodoEtag(data), key: 'chunked.bin' } });
    const got = await httpGet(env.emulator.port, '/download/pub/chunked.bin');
    expect(got.body.equals(data)).toBe(true);
    // The blocks are freed once the file is made.
    expect(blockFiles()).toEqual([]);
  });

  it('a ctx takes one chunk at the offset it announced: an old ctx or another offset is 701', async () => {
    const token = uploadToken({ scope: 'pub:strict.bin' });
    const first = await chunk(`/mkblk/${3 * 1000}`, token, Buffer.alloc(1000, 1), 1000);
    const wrongOffset = await post(`/bput/${first.ctx}/999`, token, Buffer.alloc(1000, 2));
    expect(wrongOffset).toEqual({ status: 701, json: { error: 'this ctx takes the chunk at offset 1000 of its block, not 999' } });
    const second = await chunk(`/bput/${first.ctx}/1000`, token, Buffer.alloc(1000, 2), 2000);
    // The first ctx took its chunk: sending it again (or another) with it is refused.
    expect((await post(`/bput/${first.ctx}/1000`, token, Buffer.alloc(1000, 2))).status).toBe(701);
    expect((await post('/bput/no-such-ctx/0', token, 'x')).status).toBe(701);
    // A chunk past the block's end, and a file made of an unfinished block, are refused.
    expect(await post(`/bput/${second.ctx}/2000`, token, Buffer.alloc(1001, 3))).toEqual({
      status: 400,
      json: { error: 'chunk goes past the end of its block: 1000 bytes of the block are left' },
    });
    expect(await post(`/mkfile/3000/key/${b64('strict.bin')}`, token, second.ctx)).toEqual({
      status: 400,
      json: { error: `block ${second.ctx} holds 2000 of its 3000 bytes: send the rest with bput first` },
    });
    const third = await chunk(`/bput/${second.ctx}/2000`, token, Buffer.alloc(1000, 3), 3000);
    expect(await post(`/bput/${third.ctx}/3000`, token, 'x')).toEqual({
      status: 400,
      json: { error: 'the block is complete: make the file with mkfile' },
    });
    const made = await post(`/mkfile/3000/key/${b64('strict.bin')}`, token, third.ctx);
    expect(made.status).toBe(200);
    const got = await httpGet(env.emulator.port, '/download/pub/strict.bin');
    expect(got.body.equals(Buffer.concat([Buffer.alloc(1000, 1), Buffer.alloc(1000, 2), Buffer.alloc(1000, 3)]))).toBe(true);
  });

  it('an empty chunk, a block over 4 MiB and a chunk larger than its block are refused with 400', async () => {
    const token = uploadToken({ scope: 'pub:bad.bin' });
    expect(await post('/mkblk/10', token, '')).toEqual({ status: 400, json: { error: 'empty chunk' } });
    expect((await post(`/mkblk/${BLOCK + 1}`, token, 'x')).status).toBe(400);
    expect((await post('/mkblk/2', token, 'abc')).status).toBe(400);
    expect(blockFiles()).toEqual([]);
  });

  it('a block in progress survives a restart: the next chunk goes on with the last ctx', async () => {
    const token = uploadToken({ scope: 'pub:restart.bin' });
    const data = randomBytes(300_000);
    const first = await chunk(`/mkblk/${data.length}`, token, data.subarray(0, 100_000), 100_000);
    const port = env.emulator.port;
    await env.close();
    env = await startTestEmulator({ dataDir, port });
    const second = await chunk(`/bput/${first.ctx}/100000`, token, data.subarray(100_000), 300_000);
    expect(await post(`/mkfile/${data.length}/key/${b64('restart.bin')}`, token, second.ctx)).toEqual({
      status: 200,
      json: { hash: kodoEtag(data), key: 'restart.bin' },
    });
    expect((await httpGet(env.emulator.port, '/download/pub/restart.bin')).body.equals(data)).toBe(true);
  });
});
