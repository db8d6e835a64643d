import { existsSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { ContractFailure } from '@shared/contract/result';
import type { Logger } from '@main/platform/logger';
import type { KodoClient } from '../kodo-client';
import { downloadFile, fileEtag, forgetRecord, PART_SIZE, recordedBytes, type Uploaded } from '../kodo-transfers';
import type { TransferRow } from './transfer-store';

export interface TransferWorkerDeps {
  clientFor(accountId: string): Promise<KodoClient>;
  /** Resumable upload records sit in `resume`. */
  dirs: { resume: string };
  spoolPath(id: string): string;
  /** Bytes moved so far by a transfer. */
  progress(id: string, bytes: number): void;
  logger: Logger;
}

/** What a finished transfer leaves: the upload's answer, or the etag of a download. */
interface Carried {
  uploaded?: Uploaded;
  etag?: string | undefined;
}

/** Carries out one transfer, and cleans up after a canceled one. */
export interface TransferWorker {
  /** Uploads or downloads a row's bytes, checked end to end; throws TransferStopped when aborted. */
  run(row: TransferRow, signal: AbortSignal): Promise<Carried>;
  /** What a canceled transfer leaves behind: its spooled bytes, its parts and resume record, its partial file. */
  discard(row: TransferRow): Promise<void>;
  /**
   * What a finished upload no longer needs: its spooled bytes. Called once its row says done in
   * the store's file, so a kill in between leaves the bytes to upload again, never a row that
   * names bytes no longer there.
   */
  finished(row: TransferRow): Promise<void>;
}

const QETAG = /^[Fl][\w-]{27}$/;

export function createTransferWorker(deps: TransferWorkerDeps): TransferWorker {
  const { spoolPath, progress } = deps;

  /** Parts already on the service are dropped there too; if it cannot be reached, the record goes anyway. */
  const abortParts = async (row: TransferRow) => {
    try {
      const client = await deps.clientFor(row.accountId);
      await client.abortUpload({ bucket: row.bucket, key: row.key, resumeDir: deps.dirs.resume, resumeKey: row.id });
    } catch (error) {
      deps.logger.warn('the uploaded parts of a canceled upload were not dropped on the service', {
        bucket: row.bucket,
        key: row.key,
        error: error instanceof Error ? error.message : String(error),
      });
      forgetRecord(deps.dirs.resume, row.id);
    }
  };

  const runUpload = async (row: TransferRow, client: KodoClient, signal: AbortSignal) => {
    const filePath = row.source === 'spool' ? spoolPath(row.id) : row.localPath!;
    if (!existsSync(filePath))
      throw new ContractFailure(
        'not_found',
        `the file to upload is gone (${row.source === 'spool' ? 'its received bytes were removed' : filePath}); add it again`,
      );
    // Only resumable uploads (above one part) have a record to go on from.
    if (row.size > PART_SIZE) progress(row.id, recordedBytes(deps.dirs.resume, row.id, row.size));
    const uploaded = await client.upload({
      bucket: row.bucket,
      key: row.key,
      filePath,
      size: row.size,
      overwrite: row.overwrite,
      resumeDir: deps.dirs.resume,
      resumeKey: row.id,
      signal,
      onProgress: (bytes) => progress(row.id, bytes),
    });
    // End to end: the service's etag must be the etag of the bytes that were meant to go up (a
    // form upload's bytes were checked by the service against their CRC-32 instead).
    if (uploaded.crcChecked) return uploaded;
    const expected = await fileEtag(filePath);
    if (uploaded.hash !== expected)
      throw new ContractFailure(
        'conflict',
        `the service stored etag ${uploaded.hash}, but the file's etag is ${expected}; upload it again`,
      );
    return uploaded;
  };

  const runDownload = async (row: TransferRow, client: KodoClient, signal: AbortSignal) => {
    const target = row.localPath!;
    const partPath = `${target}.part`;
    const { url, connectTo } = await client.downloadSource(row.bucket, row.key, Math.floor(Date.now() / 1000) + 3600);
    await downloadFile({
      url,
      ...(connectTo ? { connectTo } : {}),
      partPath,
      size: row.size,
      signal,
      onProgress: (bytes) => progress(row.id, bytes),
    });
    const size = statSync(partPath).size;
    if (size !== row.size) throw new ContractFailure('conflict', `the download holds ${size} bytes, the object ${row.size}; retry it`);
    // Only Kodo's own etag (qetag) can be computed from the bytes; others are kept as given.
    if (row.etag && QETAG.test(row.etag)) {
      const local = await fileEtag(partPath);
      if (local !== row.etag) {
        await rm(partPath, { force: true });
        throw new ContractFailure('conflict', `the downloaded bytes have etag ${local}, the object ${row.etag}; retry it`);
      }
    }
    await rename(partPath, target);
    return row.etag;
  };

  return {
    async run(row, signal) {
      const client = await deps.clientFor(row.accountId);
      const uploaded = row.kind === 'upload' ? await runUpload(row, client, signal) : undefined;
      return uploaded ? { uploaded, etag: uploaded.hash } : { etag: await runDownload(row, client, signal) };
    },
    async finished(row) {
      if (row.kind === 'upload' && row.source === 'spool') await rm(spoolPath(row.id), { force: true });
    },
    async discard(row) {
      if (row.kind === 'upload' && row.size > PART_SIZE) await abortParts(row);
      if (row.kind === 'upload' && row.source === 'spool') await rm(spoolPath(row.id), { force: true });
      if (row.kind === 'download' && row.localPath) await rm(`${row.localPath}.part`, { force: true });
    },
  };
}
