import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from './graph-error';
import { readJsonObject, sendJson, type RequestIds } from './graph-http';
import { STEP_KEY_HEADER, STEP_ORIGIN_HEADER } from './link-origin';

const MAX_REQUESTS = 20;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

interface BatchItem {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  dependsOn: string[];
}

function parseItems(body: Record<string, unknown>): BatchItem[] {
  const requests = body['requests'];
  if (!Array.isArray(requests) || requests.length === 0)
    throw badRequest('BadRequest', "Invalid batch payload format: 'requests' must be a non-empty array.");
  if (requests.length > MAX_REQUESTS)
    throw badRequest('BadRequest', `Number of batch request steps exceeds the maximum of ${MAX_REQUESTS}.`);
  const seen = new Set<string>();
  return requests.map((raw, index) => {
    if (typeof raw !== 'object' || raw === null)
      throw badRequest('BadRequest', `Invalid batch payload format: request ${index} is not an object.`);
    const item = raw as Record<string, unknown>;
    const id = item['id'];
    const method = typeof item['method'] === 'string' ? item['method'].toUpperCase() : '';
    const url = item['url'];
    if (typeof id !== 'string' || id === '') throw badRequest('BadRequest', `Invalid batch payload format: request ${index} has no id.`);
    if (seen.has(id)) throw badRequest('BadRequest', `Invalid batch payload format: the id '${id}' is used twice.`);
    seen.add(id);
    if (!METHODS.has(method)) throw badRequest('BadRequest', `Invalid batch payload format: request '${id}' has an unsupported method.`);
    if (typeof url !== 'string' || url === '' || /^[a-z]+:\/\//i.test(url))
      throw badRequest('BadRequest', `Invalid batch payload format: request '${id}' needs a relative url such as /me/events.`);
    const headers =
      typeof item['headers'] === 'object' && item['headers'] !== null
        ? Object.fromEntries(Object.entries(item['headers']).map(([k, v]) => [k, String(v)]))
        : {};
    if (item['body'] !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
      throw badRequest('BadRequest', `Invalid batch payload format: request '${id}' has a body but no Content-Type header.`);
    }
    const dependsOn = Array.isArray(item['dependsOn']) ? item['dependsOn'].map(String) : [];
    for (const dependency of dependsOn) {
      if (!seen.has(dependency) || dependency === id)
        throw badRequest(
          'BadRequest',
          `Invalid batch payload format: request '${id}' depends on '${dependency}', which does not come before it.`,
        );
    }
    return {
      id,
      method,
      url: url.startsWith('/') ? url : `/${url}`,
      headers,
      ...(item['body'] !== undefined ? { body: item['body'] } : {}),
      dependsOn,
    };
  });
}

/** A step's headers without the ones the batch sets itself (its token, the step origin). */
function ownHeaders(headers: Record<string, string>): Record<string, string> {
  const reserved = new Set(['authorization', STEP_ORIGIN_HEADER, STEP_KEY_HEADER]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !reserved.has(name.toLowerCase())));
}

/**
 * `POST /v1.0/$batch` (JSON batching): each step goes through the emulator over loopback with
 * the batch's own token, exactly as it would on its own (permissions, faults, 429s included).
 * Steps run in order; one whose dependency did not succeed answers 424 Failed Dependency.
 */
export interface BatchTarget {
  /** Where this emulator listens over http (`http://127.0.0.1:<port>`): steps are sent there. */
  selfUrl: string;
  /** `scheme://host` the batch came in on: every step's links are built on it. */
  origin: string;
  /** This emulator's key for the step origin headers. */
  stepKey: string;
}

export async function handleBatch(req: IncomingMessage, res: ServerResponse, ids: RequestIds, target: BatchTarget): Promise<void> {
  const items = parseItems(await readJsonObject(req));
  const authorization = req.headers.authorization ?? '';
  const outcome = new Map<string, number>();
  const responses: Record<string, unknown>[] = [];
  for (const item of items) {
    if (item.dependsOn.some((dependency) => (outcome.get(dependency) ?? 0) >= 400)) {
      outcome.set(item.id, 424);
      responses.push({
        id: item.id,
        status: 424,
        headers: { 'Content-Type': 'application/json' },
        body: { error: { code: 'FailedDependency', message: 'A request this one depends on failed.' } },
      });
      continue;
    }
    const reply = await fetch(`${target.selfUrl}/v1.0${item.url}`, {
      method: item.method,
      headers: {
        ...ownHeaders(item.headers),
        Authorization: authorization,
        [STEP_ORIGIN_HEADER]: target.origin,
        [STEP_KEY_HEADER]: target.stepKey,
      },
      ...(item.body !== undefined ? { body: typeof item.body === 'string' ? item.body : JSON.stringify(item.body) } : {}),
    });
    const text = await reply.text();
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'location', 'retry-after', 'etag', 'preference-applied']) {
      const value = reply.headers.get(name);
      if (value !== null) headers[name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`)] = value;
    }
    outcome.set(item.id, reply.status);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    responses.push({ id: item.id, status: reply.status, headers, ...(body !== undefined ? { body } : {}) });
  }
  sendJson(res, 200, { responses }, ids);
}
