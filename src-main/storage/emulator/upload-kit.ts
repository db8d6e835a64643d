import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyUploadToken, type AccountLookup, type VerifiedUploadToken } from './auth';
import { sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import type { BucketRow } from './metadata-store';
import type { ObjectService } from './object-service';
import { regionUploadHost, uploadHostRegion } from './regions';
import type { UploadReply } from './upload-completion';

/** What every upload endpoint needs to accept a request. */
export interface UploadAuthDeps {
  accounts: AccountLookup;
  objects: ObjectService;
  clock: () => number;
}

/** The token of `Authorization: UpToken <token>` (resumable uploads). */
export function upToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization ?? '';
  return header.startsWith('UpToken ') ? header.slice('UpToken '.length).trim() : undefined;
}

/** Reads and drops the rest of a request body that will not be used, so the answer reaches the client. */
export async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req) void _;
}

export function sendReply(res: ServerResponse, reply: UploadReply): void {
  if (reply.redirect) {
    res.writeHead(303, { Location: reply.redirect, 'Content-Length': 0 });
    res.end();
    return;
  }
  sendJson(res, reply.status, reply.body);
}

/**
 * Kodo's upload hosts serve one region each: a bucket's upload through another region's host
 * (a z0 bucket via `up-z1.qiniup.com`) is refused with 400 and the host to use, as Kodo answers
 * it. A host that names no region (the emulator's own address) takes every bucket.
 */
function checkUploadRegion(host: string | undefined, bucket: BucketRow): void {
  const region = uploadHostRegion(host ?? '');
  if (region !== undefined && region !== bucket.region)
    throw new KodoError(400, `incorrect region, please use ${regionUploadHost(bucket.region)}`);
}

/** The upload token checked (signature, deadline, policy), its bucket existing (631) and reached through its region's host. */
export function authorizeUpload(deps: UploadAuthDeps, req: IncomingMessage, token: string | undefined): VerifiedUploadToken {
  const verified = verifyUploadToken(token, deps.accounts, deps.clock());
  checkUploadRegion(req.headers.host, deps.objects.bucket(verified.bucket));
  return verified;
}
