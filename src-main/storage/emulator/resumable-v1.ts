import type { IncomingMessage, ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { TooLargeError, type StagedFile } from './blob-store';
import { KODO_BLOCK, urlsafeB64Decode } from './encoding';
import { readBody, sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import type { BlockRow, MetadataStore } from './metadata-store';
import { completeUpload } from './upload-completion';
import { authorizeUpload, drain, sendReply, upToken } from './upload-kit';
import { beginAppend, type UploadRouteDeps } from './upload-route-deps';

const CTX_TTL_MS = 7 * 86_400_000;

/** Bytes of a block received so far (rows from before bput hold whole blocks). */
const receivedOf = (block: BlockRow): number => block.received ?? block.size;

const unknownCtx = (): KodoError => new KodoError(701, 'context expired or unknown: upload the block again');

/**
 * Writes one chunk at `position` of its block file (cutting off what an interrupted earlier try
 * left there) with its crc32; at most `room` bytes, at least one.
 */
async function stageChunk(deps: UploadRouteDeps, req: IncomingMessage, file: string, position: number, room: number): Promise<StagedFile> {
  let staged: StagedFile;
  try {
    staged = await deps.blobs.stage(
      req as AsyncIterable<Buffer>,
      room,
      { path: deps.blobs.partPath(file), position },
      { crc32: true, sync: false },
    );
  } catch (error) {
    if (error instanceof TooLargeError)
      throw new KodoError(400, `chunk goes past the end of its block: ${room} bytes of the block are left`);
    throw error;
  }
  if (staged.size === 0) throw new KodoError(400, 'empty chunk');
  return staged;
}

/** mkblk and bput answer alike: the ctx that takes the next chunk, and where it goes. */
function chunkReply(deps: UploadRouteDeps, req: IncomingMessage, block: BlockRow): Record<string, unknown> {
  return {
    ctx: block.ctx,
    checksum: createHash('sha1').update(block.ctx).digest('base64url'),
    crc32: block.crc32,
    offset: receivedOf(block),
    host: deps.publicUrl(req),
    expired_at: Math.floor(block.expire_at / 1000),
  };
}

/**
 * POST /mkblk/<blockSize>: makes a block of that size (at most 4 MiB) with its first chunk, which
 * may be the whole block (the Node and PHP SDKs) or less of it (SDKs that send chunks: the rest
 * comes by bput).
 */
export async function handleMkblk(deps: UploadRouteDeps, req: IncomingMessage, res: ServerResponse, sizeText: string): Promise<void> {
  let owner: string;
  try {
    owner = authorizeUpload(deps, req, upToken(req)).account.accessKey;
  } catch (error) {
    await drain(req);
    throw error;
  }
  const size = Number(sizeText);
  if (!/^\d+$/.test(sizeText) || size <= 0 || size > KODO_BLOCK) {
    await drain(req);
    throw new KodoError(400, `invalid block size ${sizeText}: 1 to ${KODO_BLOCK} bytes`);
  }
  const ctx = deps.blobs.newId();
  const file = `blk-${ctx}`;
  let staged: StagedFile;
  try {
    staged = await stageChunk(deps, req, file, 0, size);
  } catch (error) {
    await rm(deps.blobs.partPath(file), { force: true });
    throw error;
  }
  const block: BlockRow = { ctx, owner, size, crc32: staged.crc32, expire_at: deps.clock() + CTX_TTL_MS, file, received: staged.size };
  deps.db.putBlock(block);
  sendJson(res, 200, chunkReply(deps, req, block));
}

/**
 * POST /bput/<ctx>/<offset>: the next chunk of a block. A ctx takes exactly one chunk, at the
 * offset it announced; the answer's new ctx takes the one after. Any other ctx or offset is 701,
 * which makes the SDKs upload the block again from mkblk.
 */
export async function handleBput(deps: UploadRouteDeps, req: IncomingMessage, res: ServerResponse, rest: string[]): Promise<void> {
  const [ctx = '', offsetText = ''] = rest;
  let block: BlockRow | undefined;
  try {
    const owner = authorizeUpload(deps, req, upToken(req)).account.accessKey;
    block = deps.db.block(ctx);
    if (rest.length !== 2 || !block || block.owner !== owner || block.expire_at <= deps.clock()) throw unknownCtx();
    const received = receivedOf(block);
    if (offsetText !== String(received))
      throw new KodoError(701, `this ctx takes the chunk at offset ${received} of its block, not ${offsetText}`);
    if (received >= block.size) throw new KodoError(400, 'the block is complete: make the file with mkfile');
    // Two chunks for one ctx at once would write over each other: the later one is refused.
    if (deps.assembling.has(block.file)) throw new KodoError(701, 'a chunk for this ctx is being written: upload the block again');
  } catch (error) {
    await drain(req);
    throw error;
  }
  const received = receivedOf(block);
  const appended = beginAppend(deps.assembling, block.file);
  try {
    const staged = await stageChunk(deps, req, block.file, received, block.size - received);
    const next: BlockRow = {
      ...block,
      ctx: deps.blobs.newId(),
      crc32: staged.crc32,
      expire_at: deps.clock() + CTX_TTL_MS,
      received: received + staged.size,
    };
    // The old ctx goes in the same transaction: the file now holds more than it announced.
    if (!deps.db.advanceBlock(ctx, next)) throw unknownCtx();
    sendJson(res, 200, chunkReply(deps, req, next));
  } finally {
    appended();
  }
}

/** POST /mkfile/<fsize>[/key/<b64>][/mimeType/<b64>][/fname/<b64>][/x:v/<b64>]... body = the last ctx of each block, comma-separated. */
export async function handleMkfile(deps: UploadRouteDeps, req: IncomingMessage, res: ServerResponse, rest: string[]): Promise<void> {
  let token;
  try {
    token = authorizeUpload(deps, req, upToken(req));
  } catch (error) {
    await drain(req);
    throw error;
  }
  const fsize = Number(rest[0]);
  if (!Number.isInteger(fsize) || fsize < 0) throw new KodoError(400, `invalid file size ${rest[0]}`);
  const params = new Map<string, string>();
  for (let i = 1; i + 1 < rest.length; i += 2) params.set(decodeURIComponent(rest[i]!), urlsafeB64Decode(rest[i + 1]!).toString('utf8'));
  const body = (await readBody(req, 16 * 1024 * 1024)).toString('utf8').trim();
  const ctxs = body === '' ? [] : body.split(',');
  const blocks = ctxs.map((ctx) => {
    const block = deps.db.block(ctx);
    if (!block || block.owner !== token.account.accessKey || block.expire_at <= deps.clock()) throw unknownCtx();
    if (receivedOf(block) !== block.size)
      throw new KodoError(400, `block ${ctx} holds ${receivedOf(block)} of its ${block.size} bytes: send the rest with bput first`);
    return block;
  });
  const total = blocks.reduce((sum, b) => sum + b.size, 0);
  if (total !== fsize) throw new KodoError(400, `blocks hold ${total} bytes, mkfile says ${fsize}`);
  // Ranges, not whole files: a chunk cut short by a crash may have left bytes past the block's end.
  const staged = await deps.blobs.concat(blocks.map((b) => ({ path: deps.blobs.partPath(b.file), start: 0, size: b.size })));
  const vars: Record<string, string> = {};
  const meta: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name.startsWith('x:')) vars[name] = value;
    else if (name.toLowerCase().startsWith('x-qn-meta-')) meta[name] = value;
  }
  const reply = await completeUpload(
    deps,
    { token, key: params.get('key'), staged, fname: params.get('fname') ?? '', mimeType: params.get('mimeType'), vars, meta },
    false,
  );
  if (reply.status === 200 || reply.status === 579) {
    for (const block of blocks) {
      deps.db.deleteBlock(block.ctx);
      await rm(deps.blobs.partPath(block.file), { force: true });
    }
  }
  sendReply(res, reply);
}

/** Frees blocks whose ctx expired. */
export async function sweepBlocks(deps: { db: MetadataStore; blobs: { partPath(name: string): string } }, now: number): Promise<void> {
  for (const block of deps.db.expiredBlocks(now)) {
    deps.db.deleteBlock(block.ctx);
    await rm(deps.blobs.partPath(block.file), { force: true });
  }
}
