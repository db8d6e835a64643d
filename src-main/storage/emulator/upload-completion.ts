import { open } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import type { Logger } from '../../platform/logger';
import { checkScope, type VerifiedUploadToken } from './auth';
import { HEAD_BYTES, type BlobStore, type StagedFile } from './blob-store';
import { postCallback } from './callback-post';
import { hmacSha1B64 } from './encoding';
import { KodoError } from './kodo-error';
import { mimeAllowed, mimeFromBytes, mimeFromName } from './mime-guess';
import type { ObjectService } from './object-service';

/** What the client sent besides the bytes (form fields, mkfile segments or the v2 complete body). */
export interface UploadRequest {
  token: VerifiedUploadToken;
  /** The key the client asked for; undefined when it sent none. */
  key: string | undefined;
  staged: StagedFile;
  fname: string;
  mimeType: string | undefined;
  vars: Record<string, string>;
  meta: Record<string, string>;
}

export interface UploadReply {
  status: number;
  body: unknown;
  /** returnUrl: a 303 to this location (form uploads only). */
  redirect?: string;
}

interface PfopStarter {
  start(request: {
    owner: string;
    bucket: string;
    key: string;
    fops: string;
    notifyURL?: string;
    pipeline?: string;
    type?: number;
    workflow?: string;
  }): string;
}

export interface UploadCompletionDeps {
  objects: ObjectService;
  blobs: BlobStore;
  pfop: PfopStarter;
  clock: () => number;
  logger: Logger;
  /** Workflow templates: name → processing commands. */
  workflows: ReadonlyMap<string, string>;
}

/** Applies the upload policy to a fully received upload, commits it, and builds the reply. */
export async function completeUpload(deps: UploadCompletionDeps, request: UploadRequest, form: boolean): Promise<UploadReply> {
  const { token, staged } = request;
  const { policy } = token;
  let adopted = false;
  try {
    deps.objects.bucket(token.bucket);
    const templateFops = policy.persistentWorkflowTemplateID ? deps.workflows.get(policy.persistentWorkflowTemplateID) : undefined;
    if (policy.persistentWorkflowTemplateID && !templateFops) {
      throw new KodoError(400, `persistentWorkflowTemplateID: no workflow template named ${policy.persistentWorkflowTemplateID}`);
    }
    if (policy.fsizeLimit !== undefined && staged.size > policy.fsizeLimit) {
      throw new KodoError(413, `file size ${staged.size} exceeds fsizeLimit ${policy.fsizeLimit}`);
    }
    if (policy.fsizeMin !== undefined && staged.size < policy.fsizeMin) {
      throw new KodoError(403, `file size ${staged.size} is below fsizeMin ${policy.fsizeMin}`);
    }
    const mime = await chooseMime(request);
    if (policy.mimeLimit && !mimeAllowed(mime, policy.mimeLimit)) {
      throw new KodoError(403, `mime type ${mime} is not allowed by mimeLimit`);
    }
    const vars = { ...request.vars };
    const magic = (name: string, key?: string): string | undefined => magicValue(name, { request, mime, key, now: deps.clock() });
    let key: string;
    if (policy.saveKey && (policy.forceSaveKey || request.key === undefined)) {
      key = expandTemplate(policy.saveKey, (name) => magic(name), 'raw');
    } else if (request.key !== undefined) {
      key = request.key;
    } else if (token.scopeKey !== undefined && policy.isPrefixalScope !== 1) {
      key = token.scopeKey;
    } else {
      key = staged.etag;
    }
    const { overwrite } = checkScope(token, key);
    const row = await deps.objects.commit({
      bucket: token.bucket,
      key,
      staged,
      mime,
      overwrite,
      endUser: policy.endUser,
      meta: request.meta,
      fileType: policy.fileType,
      deleteAfterDays: policy.deleteAfterDays,
      event: form ? 'put' : 'mkfile',
    });
    adopted = true;

    let persistentId: string | undefined;
    const fops = policy.persistentOps ?? templateFops;
    if (fops) {
      persistentId = deps.pfop.start({
        owner: token.account.accessKey,
        bucket: token.bucket,
        key,
        fops,
        workflow: policy.persistentOps ? undefined : policy.persistentWorkflowTemplateID,
        notifyURL: policy.persistentNotifyUrl,
        pipeline: policy.persistentPipeline,
        type: policy.persistentType,
      });
    }
    const lookup = (name: string): string | undefined => {
      if (name === 'persistentId') return persistentId ?? '';
      if (name === 'etag' || name === 'hash') return row.hash;
      if (name === 'fsize') return String(row.fsize);
      if (name === 'mimeType') return row.mime;
      return magic(name, key);
    };

    if (policy.callbackUrl) {
      const reply = await runCallback(deps, request, lookup);
      // callbackFetchKey: the business server names the object in its reply.
      const wanted = (reply.body as { key?: unknown } | undefined)?.key;
      if (reply.status === 200 && policy.callbackFetchKey === 1 && typeof wanted === 'string' && wanted !== key) {
        await deps.objects.transfer('move', { bucket: token.bucket, key }, { bucket: token.bucket, key: wanted }, overwrite);
      }
      return reply;
    }
    let body: unknown;
    if (policy.returnBody) {
      const text = expandTemplate(policy.returnBody, lookup, 'json');
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } else {
      body = { hash: row.hash, key, ...vars, ...(persistentId ? { persistentId } : {}) };
    }
    if (form && policy.returnUrl) {
      const encoded = Buffer.from(JSON.stringify(body)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
      const sep = policy.returnUrl.includes('?') ? '&' : '?';
      return { status: 303, body, redirect: `${policy.returnUrl}${sep}upload_ret=${encoded}` };
    }
    return { status: 200, body };
  } finally {
    // Once committed the staged file was renamed away; before that, a failure leaves it in tmp/.
    if (!adopted) await deps.blobs.discard(staged.path);
  }
}

async function chooseMime(request: UploadRequest): Promise<string> {
  const { policy } = request.token;
  const given = request.mimeType && request.mimeType !== 'application/octet-stream' ? request.mimeType : undefined;
  if (policy.detectMime === 1 || !given) {
    const detected = (await sniff(request.staged)) ?? mimeFromName(request.fname) ?? mimeFromName(request.key);
    if (policy.detectMime === 1 && detected) return detected;
    return given ?? mimeFromName(request.fname) ?? mimeFromName(request.key) ?? detected ?? 'application/octet-stream';
  }
  return given;
}

async function sniff(staged: StagedFile): Promise<string | undefined> {
  if (staged.head && (staged.head.length === HEAD_BYTES || staged.head.length === staged.size)) return mimeFromBytes(staged.head);
  const { path } = staged;
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return mimeFromBytes(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

interface MagicContext {
  request: UploadRequest;
  mime: string;
  key: string | undefined;
  now: number;
}

function magicValue(name: string, ctx: MagicContext): string | undefined {
  const { request } = ctx;
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = new Date(ctx.now);
  if (name.startsWith('x:')) return request.vars[name];
  switch (name) {
    case 'bucket':
      return request.token.bucket;
    case 'key':
      return ctx.key;
    case 'etag':
    case 'hash':
      return request.staged.etag;
    case 'fsize':
      return String(request.staged.size);
    case 'fname':
      return request.fname;
    case 'ext':
      return extname(request.fname);
    case 'fprefix':
      return request.fname.slice(0, request.fname.length - extname(request.fname).length);
    case 'mimeType':
      return ctx.mime;
    case 'endUser':
      return request.token.policy.endUser ?? '';
    case 'uuid':
      return randomUUID();
    case 'year':
      return String(date.getUTCFullYear());
    case 'mon':
      return pad(date.getUTCMonth() + 1);
    case 'day':
      return pad(date.getUTCDate());
    case 'hour':
      return pad(date.getUTCHours());
    case 'min':
      return pad(date.getUTCMinutes());
    case 'sec':
      return pad(date.getUTCSeconds());
    default:
      return undefined;
  }
}

/**
 * Fills `$(name)` variables. In form templates values are URL-encoded. In JSON templates, as on
 * Kodo: inside a string literal a value is JSON-escaped (a variable that is the whole literal
 * and has no value becomes null); outside one, numbers and JSON objects (fsize, imageInfo) go in
 * as they are and anything else as a quoted string, so `{"key":$(key)}` is valid JSON.
 */
export function expandTemplate(template: string, lookup: (name: string) => string | undefined, mode: 'json' | 'form' | 'raw'): string {
  if (mode !== 'json')
    return template.replace(/\$\(([^)]+)\)/g, (_whole, name: string) =>
      mode === 'form' ? encodeURIComponent(lookup(name) ?? '') : (lookup(name) ?? ''),
    );
  let out = '';
  let inString = false;
  for (let i = 0; i < template.length;) {
    const variable = template.startsWith('$(', i) ? /^\$\(([^)]+)\)/.exec(template.slice(i)) : null;
    if (variable) {
      const value = lookup(variable[1]!);
      const end = i + variable[0].length;
      if (inString && value === undefined && template[i - 1] === '"' && template[end] === '"') {
        // `"$(x:missing)"`: the whole literal becomes null, its quotes with it.
        out = `${out.slice(0, -1)}null`;
        inString = false;
        i = end + 1;
        continue;
      }
      out += inString ? (value === undefined ? '' : JSON.stringify(value).slice(1, -1)) : jsonValue(value);
      i = end;
      continue;
    }
    const char = template[i]!;
    if (char === '\\' && inString) {
      out += template.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (char === '"') inString = !inString;
    out += char;
    i += 1;
  }
  return out;
}

/** A variable outside quotes: a number or a JSON object as it is, anything else as a string. */
function jsonValue(value: string | undefined): string {
  if (value === undefined) return 'null';
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return value;
  if (/^\s*[[{]/.test(value)) {
    try {
      JSON.parse(value);
      return value;
    } catch {
      // Not JSON after all: a string.
    }
  }
  return JSON.stringify(value);
}

/** POSTs callbackBody to each callbackUrl in turn; the first JSON 200 reply becomes the upload reply. */
async function runCallback(
  deps: UploadCompletionDeps,
  request: UploadRequest,
  lookup: (name: string) => string | undefined,
): Promise<UploadReply> {
  const { policy, account } = request.token;
  const contentType = policy.callbackBodyType ?? 'application/x-www-form-urlencoded';
  const template = policy.callbackBody ?? '';
  const body = expandTemplate(template, lookup, contentType === 'application/json' ? 'json' : 'form');
  let lastError = 'callback failed';
  for (const target of (policy.callbackUrl ?? '').split(';').filter(Boolean)) {
    try {
      const url = new URL(target);
      const signed = url.pathname + url.search + '\n' + (contentType === 'application/x-www-form-urlencoded' ? body : '');
      const headers: Record<string, string> = {
        'Content-Type': contentType,
        Authorization: `QBox ${account.accessKey}:${hmacSha1B64(account.secretKey, signed)}`,
      };
      if (policy.callbackHost) headers['Host'] = policy.callbackHost;
      const { status, text } = await postCallback(url, headers, body, 5000);
      if (status !== 200) {
        lastError = `callback failed: ${url.host} replied ${status}`;
        continue;
      }
      try {
        return { status: 200, body: JSON.parse(text) };
      } catch {
        lastError = 'callback failed: the reply is not JSON';
      }
    } catch (error) {
      lastError = `callback failed: ${(error as Error).message}`;
      deps.logger.warn('upload callback failed', { error: lastError });
    }
  }
  return { status: 579, body: { error: lastError } };
}
