import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import type qiniu from 'qiniu';
import { qiniuSdk } from './qiniu-sdk';
import { ContractFailure } from '@shared/contract/result';
import { EtagHasher, KODO_BLOCK } from '../kodo-etag';
import type { BodyBuffers } from './body-buffers';
import { kodoFailure, unreachable } from './kodo-errors';
import { openObjectSource, type ObjectSource } from './object-source';

export interface UploadJob {
  bucket: string;
  key: string;
  filePath: string;
  size: number;
  overwrite: boolean;
  /** Custom metadata stored with the object, each name starting `x-qn-meta-` (stat returns them without it). */
  metadata?: Record<string, string>;
  /** The object's MIME type; detected from its bytes when absent. */
  mimeType?: string;
  /** Where resumable uploads keep their record (uploadId and finished parts), one file per `resumeKey`. */
  resumeDir: string;
  resumeKey: string;
  /** Aborting lets the part in flight finish, then stops; the record keeps what was sent. */
  signal: AbortSignal;
  onProgress(transferred: number): void;
}

export interface DownloadJob extends ObjectSource {
  /** The partial file: its length is where the download goes on (Range). */
  partPath: string;
  size: number;
  signal: AbortSignal;
  onProgress(transferred: number): void;
}

/** Files up to one block go in a single form upload; larger ones in 4 MiB resumable v2 parts. */
export const PART_SIZE = KODO_BLOCK;

export class TransferStopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'TransferStopped';
  }
}

/** What the service says of a finished upload (the policy's returnBody). */
export interface Uploaded {
  hash: string;
  size: number;
  mimeType: string;
  /**
   * The service checked the bytes it stored against the CRC-32 of the file's bytes sent with
   * them (a form upload: Kodo refuses a mismatch with 406), so they need no etag of their own.
   */
  crcChecked?: true;
}

interface Answer {
  data: { hash?: string; key?: string; fsize?: number; mimeType?: string; error?: string } | undefined;
  resp: { statusCode?: number };
}

/** The qetag of a local file, to check what the service stored against what was sent. */
export async function fileEtag(path: string): Promise<string> {
  const hasher = new EtagHasher();
  for await (const chunk of createReadStream(path, { highWaterMark: KODO_BLOCK })) hasher.update(chunk as Buffer);
  return hasher.digest();
}

/** Bytes already sent according to a resumable upload's record (0 when it has none). */
export function recordedBytes(resumeDir: string, resumeKey: string, size: number): number {
  const qiniu = qiniuSdk();
  const recorder = qiniu.resume_up.createResumeRecorderSync(resumeDir) as unknown as {
    getSync(key: string): { etags?: unknown[]; expiredAt?: number } | undefined;
  };
  const record = recorder.getSync(resumeKey);
  if (!record?.etags || (record.expiredAt ?? 0) * 1000 < Date.now()) return 0;
  return Math.min(size, record.etags.length * PART_SIZE);
}

/**
 * Ends on the service the multipart upload a record names (v2 abort: DELETE on the upload id),
 * so a canceled upload leaves no parts behind; then forgets the record. A record with no upload
 * id yet (nothing sent) is just forgotten.
 */
export async function abortRecordedUpload(
  mac: qiniu.auth.digest.Mac,
  https: boolean,
  job: { bucket: string; key: string; resumeDir: string; resumeKey: string },
): Promise<void> {
  const qiniu = qiniuSdk();
  const recorder = qiniu.resume_up.createResumeRecorderSync(job.resumeDir) as unknown as {
    getSync(key: string): { uploadId?: string; upDomains?: string[] } | undefined;
  };
  const record = recorder.getSync(job.resumeKey);
  const host = record?.upDomains?.[0];
  if (record?.uploadId && host) {
    const token = new qiniu.rs.PutPolicy({ scope: `${job.bucket}:${job.key}`, expires: 600 }).uploadToken(mac);
    const url = `${https ? 'https' : 'http'}://${host}/buckets/${encodeURIComponent(job.bucket)}/objects/${qiniu.util.urlsafeBase64Encode(job.key)}/uploads/${encodeURIComponent(record.uploadId)}`;
    const answer = await fetch(url, { method: 'DELETE', headers: { Authorization: `UpToken ${token}` } }).catch((error: unknown) => {
      throw new ContractFailure(
        'unavailable',
        `the service could not be told to drop the uploaded parts: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    // 612: the service no longer has the upload (expired or already ended): nothing to drop.
    if (!answer.ok && answer.status !== 612)
      throw kodoFailure(answer.status, (await answer.json().catch(() => ({}))) as { error?: string });
  }
  forgetRecord(job.resumeDir, job.resumeKey);
}

export function forgetRecord(resumeDir: string, resumeKey: string): void {
  const qiniu = qiniuSdk();
  const recorder = qiniu.resume_up.createResumeRecorderSync(resumeDir) as unknown as { deleteSync(key: string): void };
  recorder.deleteSync(resumeKey);
}

/**
 * Uploads a file with the official SDK: resumable v2 with a record, so a paused, failed or
 * interrupted upload goes on from its last finished part. Returns what the service stored.
 */
export async function uploadFile(
  mac: qiniu.auth.digest.Mac,
  config: qiniu.conf.Config,
  where: string,
  job: UploadJob,
  bodies: BodyBuffers,
): Promise<Uploaded> {
  const qiniu = qiniuSdk();
  // The answer carries what the folder index needs, so no stat follows each upload.
  const returnBody = '{"key":"$(key)","hash":"$(etag)","fsize":$(fsize),"mimeType":"$(mimeType)"}';
  const policy = new qiniu.rs.PutPolicy({
    scope: `${job.bucket}:${job.key}`,
    ...(job.mimeType ? {} : { detectMime: 1 }),
    returnBody,
    expires: 24 * 3600,
    ...(job.overwrite ? {} : { insertOnly: 1 }),
  });
  const token = policy.uploadToken(mac);
  const fname = basename(job.key);
  if (job.signal.aborted) throw new TransferStopped();
  let answer: Answer;
  let crcChecked = false;
  try {
    if (job.size <= PART_SIZE) {
      // The SDK checks every form upload's CRC-32 and, given none, works it out in JavaScript
      // byte by byte: zlib's is the same number for a fraction of the time.
      // One read of the whole file serves the CRC and the body: a file handed to the SDK by path
      // is read again by it, in 64 KiB pieces. The service checks what it received against the
      // CRC, which stands for the etag check (a SHA-1 of every byte) end to end.
      const body = await bodies.read(job.filePath, job.size);
      try {
        const extra = new qiniu.form_up.PutExtra(fname, undefined, job.mimeType, String(crc32(body.bytes)), undefined, job.metadata);
        crcChecked = true;
        answer = (await new qiniu.form_up.FormUploader(config).put(token, job.key, body.bytes, extra)) as Answer;
        job.onProgress(body.bytes.length);
      } finally {
        // The request has ended (answered or failed): nothing reads the bytes any more.
        body.release();
      }
    } else {
      mkdirSync(job.resumeDir, { recursive: true });
      const recorder = qiniu.resume_up.createResumeRecorderSync(job.resumeDir);
      const progress = (uploaded: number) => {
        // The SDK asks after each finished part: throwing here stops it with the record kept.
        if (job.signal.aborted) throw new TransferStopped();
        job.onProgress(uploaded);
      };
      const extra = qiniu.resume_up.PutExtra.create(
        fname,
        undefined,
        job.mimeType,
        undefined,
        progress,
        PART_SIZE,
        'v2',
        job.metadata,
        recorder,
        job.resumeKey,
      );
      const put = async () => (await new qiniu.resume_up.ResumeUploader(config).putFile(token, job.key, job.filePath, extra)) as Answer;
      answer = await put();
      // 612: the recorded upload is over on the service: completed by a run killed before it
      // noted so, or expired. The object may be there already, or the upload starts afresh.
      if (answer.resp.statusCode === 612) {
        forgetRecord(job.resumeDir, job.resumeKey);
        const stored = await storedAlready(new qiniu.rs.BucketManager(mac, config), job);
        if (stored) return stored;
        answer = await put();
      }
    }
  } catch (error) {
    if (job.signal.aborted) throw new TransferStopped();
    throw unreachable(error, where);
  }
  const status = answer.resp.statusCode ?? 0;
  if (status !== 200 || !answer.data?.hash) throw kodoFailure(status, answer.data);
  return {
    hash: answer.data.hash,
    size: answer.data.fsize ?? job.size,
    mimeType: answer.data.mimeType ?? 'application/octet-stream',
    ...(crcChecked ? { crcChecked: true as const } : {}),
  };
}

/** The object as stored, when it holds the very bytes of the job's file. */
async function storedAlready(bucket: qiniu.rs.BucketManager, job: UploadJob): Promise<Uploaded | undefined> {
  const { data, resp } = (await bucket.stat(job.bucket, job.key)) as Answer;
  if (resp.statusCode !== 200 || !data?.hash || data.hash !== (await fileEtag(job.filePath))) return undefined;
  return { hash: data.hash, size: data.fsize ?? job.size, mimeType: data.mimeType ?? 'application/octet-stream' };
}

/**
 * Downloads into `partPath`, going on from its current length with a Range request. Resolves
 * when the file holds `size` bytes; a server that ignores Range starts the file again.
 */
export async function downloadFile(job: DownloadJob): Promise<void> {
  mkdirSync(dirname(job.partPath), { recursive: true });
  const have = await stat(job.partPath).then(
    (s) => s.size,
    () => 0,
  );
  if (have >= job.size && job.size > 0) return;
  if (job.signal.aborted) throw new TransferStopped();
  const response = await openObjectSource(job, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, signal: job.signal }).catch(
    (error: unknown) => {
      if (job.signal.aborted) throw new TransferStopped();
      throw new ContractFailure('unavailable', `the download could not start: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  const status = response.statusCode ?? 0;
  if (status !== 200 && status !== 206) {
    response.resume();
    throw kodoFailure(status, { error: `download answered HTTP ${status}` });
  }
  const from = status === 206 ? have : 0;
  let transferred = from;
  job.onProgress(transferred);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      transferred += chunk.length;
      job.onProgress(transferred);
      done(null, chunk);
    },
  });
  try {
    await pipeline(response, counter, createWriteStream(job.partPath, from > 0 ? { flags: 'a' } : { flags: 'w' }), { signal: job.signal });
  } catch (error) {
    if (job.signal.aborted) throw new TransferStopped();
    throw new ContractFailure(
      'unavailable',
      `the download broke off at ${transferred} bytes: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
