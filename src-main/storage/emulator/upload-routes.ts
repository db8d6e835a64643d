import type { IncomingMessage, ServerResponse } from 'node:http';
import { rename, rm, truncate } from 'node:fs/promises';
import { checkScope, type VerifiedUploadToken } from './auth';
import { TooLargeError, type StagedFile } from './blob-store';
import { urlsafeB64Decode } from './encoding';
import { readBody, sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import type { UploadRow } from './metadata-store';
import { etagOfParts } from './part-etag';
import { boundaryOf, readAll, readMultipart } from './multipart-reader';
import { sweepBlocks } from './resumable-v1';
import { completeUpload, type UploadReply } from './upload-completion';
import { authorizeUpload, drain, sendReply, upToken } from './upload-kit';
import { appendSettled, beginAppend, type UploadRouteDeps } from './upload-route-deps';

export type { UploadRouteDeps } from './upload-route-deps';

const CTX_TTL_MS = 7 * 86_400_000;
const MAX_PART = 1024 * 1024 * 1024;
/** How long completion (or a part sent again) waits for a part still being appended. */
const APPEND_WAIT_MS = 30_000;

/** POST / multipart: token, key, x:*, x-qn-meta-*, file, then crc32. */
export async function handleFormUpload(deps: UploadRouteDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const boundary = boundaryOf(req.headers['content-type']);
  const fields = new Map<string, string>();
  let token: VerifiedUploadToken | undefined;
  let staged: StagedFile | undefined;
  let fileName = '';
  let fileType: string | undefined;
  try {
    for await (const part of readMultipart(req as AsyncIterable<Buffer>, boundary)) {
      if (part.name === 'file') {
        if (staged) throw new KodoError(400, 'more than one file part');
        fileName = part.filename ?? '';
        fileType = part.contentType;
        const limit = token?.policy.fsizeLimit ?? Infinity;
        try {
          staged = await deps.blobs.stage(part.body, limit);
        } catch (error) {
          if (error instanceof TooLargeError) throw new KodoError(413, `file size exceeds fsizeLimit ${limit}`);
          throw error;
        }
        continue;
      }
      const value = (await readAll(part.body, 1024 * 1024)).toString('utf8');
      fields.set(part.name, value);
      if (part.name === 'token') token = authorizeUpload(deps, req, value);
    }
  } catch (error) {
    if (staged) await deps.blobs.discard(staged.path);
    await drain(req);
    throw error;
  }
  if (!token) {
    if (staged) await deps.blobs.discard(staged.path);
    throw new KodoError(401, 'token not specified');
  }
  if (!staged) throw new KodoError(400, 'file part is missing');
  const crc = fields.get('crc32');
  if (crc !== undefined && crc !== '' && Number(crc) !== staged.crc32) {
    await deps.blobs.discard(staged.path);
    throw new KodoError(406, `crc32 mismatch: sent ${crc}, received ${staged.crc32}`);
  }
  const vars: Record<string, string> = {};
  const meta: Record<string, string> = {};
  for (const [name, value] of fields) {
    if (name.startsWith('x:')) vars[name] = value;
    else if (name.toLowerCase().startsWith('x-qn-meta-')) meta[name] = value;
  }
  const reply = await completeUpload(
    deps,
    {
      token,
      key: fields.get('key'),
      staged,
      fname: fields.get('fname') ?? fileName,
      mimeType: fileType,
      vars,
      meta,
    },
    true,
  );
  sendReply(res, reply);
}

function objectKey(encoded: string): string | undefined {
  return encoded === '~' ? undefined : urlsafeB64Decode(encoded).toString('utf8');
}

function uploadToken(deps: UploadRouteDeps, req: IncomingMessage, bucket: string): VerifiedUploadToken {
  const token = authorizeUpload(deps, req, upToken(req));
  if (token.bucket !== bucket) throw new KodoError(403, `token scope is bucket ${token.bucket}, the path names ${bucket}`);
  return token;
}

/** v2 multipart: initiate, upload part, complete, abort, list parts. */
export async function handleMultipart(deps: UploadRouteDeps, req: IncomingMessage, res: ServerResponse, segments: string[]): Promise<void> {
  // segments: buckets, <b>, objects, <o>, uploads, [id], [part]
  const [, bucket, , encodedKey, , uploadId, partText] = segments as [string, string, string, string, string, string?, string?];
  const method = req.method ?? 'GET';
  let token: VerifiedUploadToken;
  try {
    token = uploadToken(deps, req, bucket);
  } catch (error) {
    await drain(req);
    throw error;
  }
  const key = objectKey(encodedKey);
  if (uploadId === undefined) {
    if (method !== 'POST') throw new KodoError(405, 'use POST to initiate a multipart upload');
    await drain(req);
    if (key !== undefined) checkScope(token, key);
    const id = deps.blobs.newId();
    const expireAt = deps.clock() + CTX_TTL_MS;
    deps.db.putUpload({ id, bucket, key: key ?? '', owner: token.account.accessKey, expire_at: expireAt, assembled: 0, asm_size: 0 });
    sendJson(res, 200, { uploadId: id, expireAt: Math.floor(expireAt / 1000) });
    return;
  }
  const upload = deps.db.upload(uploadId);
  if (!upload || upload.bucket !== bucket || upload.key !== (key ?? '') || upload.expire_at <= deps.clock()) {
    await drain(req);
    throw new KodoError(612, 'no such uploadId (expired or never initiated)');
  }
  if (partText !== undefined) {
    if (method !== 'PUT') throw new KodoError(405, 'use PUT to upload a part');
    const partNumber = Number(partText);
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
      await drain(req);
      throw new KodoError(400, `invalid partNumber ${partText}: 1 to 10000`);
    }
    await putPart(deps, req, res, upload, partNumber);
    return;
  }
  if (method === 'DELETE') {
    await drain(req);
    await dropUpload(deps, uploadId);
    sendJson(res, 200, {});
    return;
  }
  if (method === 'GET') {
    await drain(req);
    const parts = deps.db.parts(uploadId).map((p) => ({ partNumber: p.part_number, etag: p.etag, size: p.size, putTime: 0 }));
    sendJson(res, 200, { uploadId, expireAt: Math.floor(upload.expire_at / 1000), partNumberMarker: 0, parts });
    return;
  }
  const body = await readBody(req, 16 * 1024 * 1024);
  let request: {
    fname?: string;
    mimeType?: string;
    customVars?: Record<string, unknown>;
    metadata?: Record<string, unknown>;
    parts?: { etag: string; partNumber: number }[];
  };
  try {
    request = JSON.parse(body.toString('utf8'));
  } catch {
    throw new KodoError(400, 'complete body is not JSON');
  }
  const listed = request.parts ?? [];
  if (!(await appendSettled(deps.assembling, uploadId, APPEND_WAIT_MS)))
    throw new KodoError(400, 'a part of this upload is still being written');
  const stored = new Map(deps.db.parts(uploadId).map((p) => [p.part_number, p]));
  let last = 0;
  const chosen = listed.map((p) => {
    if (p.partNumber <= last) throw new KodoError(400, 'parts must be listed in ascending partNumber order');
    last = p.partNumber;
    const part = stored.get(p.partNumber);
    if (!part) throw new KodoError(400, `part ${p.partNumber} was never uploaded`);
    if (part.etag !== p.etag) throw new KodoError(400, `part ${p.partNumber} etag does not match`);
    return part;
  });
  const assembly = deps.blobs.partPath(`asm-${uploadId}`);
  // The common case (parts sent in order, all of them listed): the assembly file is the object,
  // and its etag follows from the parts' block hashes once they are all recorded.
  const whole =
    chosen.length > 0 && chosen.length === upload.assembled && chosen.every((p, i) => p.part_number === i + 1 && p.offset !== null);
  if (whole) await deps.finishingParts.get(uploadId);
  const staged = whole
    ? await deps.blobs.stageInPlace(assembly, upload.asm_size, etagOfParts(deps.db.parts(uploadId).slice(0, chosen.length)))
    : await deps.blobs.concat(
        chosen.map((p) => (p.offset === null ? deps.blobs.partPath(p.file) : { path: assembly, start: p.offset, size: p.size })),
      );
  const stringify = (o: Record<string, unknown> | undefined) =>
    Object.fromEntries(
      Object.entries(o ?? {})
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => [k, String(v)]),
    );
  let reply: UploadReply;
  try {
    reply = await completeUpload(
      deps,
      {
        token,
        key,
        staged,
        fname: request.fname ?? '',
        mimeType: request.mimeType ?? undefined,
        vars: Object.fromEntries(Object.entries(stringify(request.customVars)).filter(([k]) => k.startsWith('x:'))),
        meta: Object.fromEntries(Object.entries(stringify(request.metadata)).filter(([k]) => k.toLowerCase().startsWith('x-qn-meta-'))),
      },
      false,
    );
  } catch (error) {
    // The assembly file was consumed: this upload cannot be completed again.
    if (whole) await dropUpload(deps, uploadId);
    throw error;
  }
  if (reply.status === 200 || reply.status === 579) await dropUpload(deps, uploadId);
  sendReply(res, reply);
}

/**
 * PUT of one part. A part that comes next in order is appended to the upload's assembly file, so
 * completing an in-order upload needs no copy; any other part gets a file of its own.
 */
async function putPart(
  deps: UploadRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  upload: UploadRow,
  partNumber: number,
): Promise<void> {
  const uploadId = upload.id;
  const expected = typeof req.headers['content-md5'] === 'string' ? req.headers['content-md5'].toLowerCase() : '';
  const previous = deps.db.part(uploadId, partNumber);
  const inOrder = partNumber === upload.assembled + 1 && !previous && !deps.assembling.has(uploadId);
  if (previous && previous.offset !== null) await detachAssembly(deps, upload, partNumber);
  const name = inOrder ? '' : `part-${uploadId}-${partNumber}-${deps.blobs.newId()}`;
  const start = inOrder ? upload.asm_size : 0;
  const target = inOrder ? { path: deps.blobs.partPath(`asm-${uploadId}`), position: start } : deps.blobs.partPath(name);
  const appended = inOrder ? beginAppend(deps.assembling, uploadId) : undefined;
  try {
    let staged: StagedFile;
    try {
      staged = await deps.blobs.stage(req as AsyncIterable<Buffer>, MAX_PART, target, { md5: true, blocks: true, sync: false });
    } catch (error) {
      if (error instanceof TooLargeError) throw new KodoError(413, 'part larger than 1 GiB');
      throw error;
    }
    if (expected !== '' && expected !== staged.md5) {
      if (inOrder) await truncate(staged.path, upload.asm_size);
      else await rm(staged.path, { force: true });
      throw new KodoError(406, `Content-MD5 mismatch: sent ${expected}, received ${staged.md5}`);
    }
    // A part's etag is opaque to clients; its md5 with the part number is unique enough.
    const etag = `${staged.md5}-${partNumber}`;
    deps.db.transaction(() => {
      deps.db.putPart({
        upload_id: uploadId,
        part_number: partNumber,
        etag,
        md5: staged.md5,
        size: staged.size,
        file: name,
        offset: inOrder ? upload.asm_size : null,
        blocks: null,
      });
      if (inOrder) deps.db.setAssembly(uploadId, partNumber, upload.asm_size + staged.size);
    });
    if (previous && previous.offset === null) await rm(deps.blobs.partPath(previous.file), { force: true });
    sendJson(res, 200, { etag, md5: staged.md5 });
    finishPartLater(deps, uploadId, partNumber, etag, { path: staged.path, start, size: staged.size });
  } finally {
    appended?.();
  }
}

/**
 * After a part is acknowledged (nothing of this is on the path to its reply): its block hashes
 * (read back from the file by the digest thread) go to its row and its bytes to the disk, while
 * the client is busy with the next part, so completion neither re-reads nor flushes the whole
 * object. Work for one upload runs in order; completion waits for it. Failing here costs only
 * speed: a part without hashes is read again at completion, and completion fsyncs the object anyway.
 */
function finishPartLater(
  deps: UploadRouteDeps,
  uploadId: string,
  partNumber: number,
  etag: string,
  part: { path: string; start: number; size: number },
): void {
  const before = deps.finishingParts.get(uploadId) ?? Promise.resolve();
  const work = before.then(async () => {
    try {
      const hashes = await deps.blobs.blocksOfFile(part.path, part.start, part.size);
      deps.db.setPartBlocks(uploadId, partNumber, etag, Buffer.concat(hashes));
      await deps.blobs.persistRange(part.path, part.start, part.size);
    } catch (error) {
      // The upload was aborted or the part replaced meanwhile: nothing is left to finish.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') deps.logger.debug('part hashing or flush failed', { error });
    }
  });
  deps.finishingParts.set(uploadId, work);
  void work.then(() => {
    if (deps.finishingParts.get(uploadId) === work) deps.finishingParts.delete(uploadId);
  });
}

/** A part inside the assembly is sent again: parts from it on move to files of their own. */
async function detachAssembly(deps: UploadRouteDeps, upload: UploadRow, fromPart: number): Promise<void> {
  if (!(await appendSettled(deps.assembling, upload.id, APPEND_WAIT_MS)))
    throw new KodoError(400, 'a part of this upload is still being written');
  // Block hashes are read back from the assembly: those under way finish before it is cut.
  await deps.finishingParts.get(upload.id);
  const assembly = deps.blobs.partPath(`asm-${upload.id}`);
  const moved = deps.db.parts(upload.id).filter((p) => p.offset !== null && p.part_number > fromPart);
  for (const part of moved) {
    const name = `part-${upload.id}-${part.part_number}-${deps.blobs.newId()}`;
    const copy = await deps.blobs.concat([{ path: assembly, start: part.offset!, size: part.size }]);
    await rename(copy.path, deps.blobs.partPath(name));
    deps.db.putPart({ ...part, file: name, offset: null });
  }
  const cut = deps.db.part(upload.id, fromPart)?.offset ?? upload.asm_size;
  deps.db.setAssembly(upload.id, fromPart - 1, cut);
  upload.assembled = fromPart - 1;
  upload.asm_size = cut;
  await truncate(assembly, cut);
}

async function dropUpload(deps: Pick<UploadRouteDeps, 'db' | 'blobs'>, uploadId: string): Promise<void> {
  const parts = deps.db.parts(uploadId);
  deps.db.deleteUpload(uploadId);
  for (const part of parts) if (part.file !== '') await rm(deps.blobs.partPath(part.file), { force: true });
  await rm(deps.blobs.partPath(`asm-${uploadId}`), { force: true });
}

/** Frees expired v1 blocks and v2 uploads. */
export async function sweepUploads(deps: Pick<UploadRouteDeps, 'db' | 'blobs'>, now: number): Promise<void> {
  await sweepBlocks(deps, now);
  for (const upload of deps.db.expiredUploads(now)) await dropUpload(deps, upload.id);
}
