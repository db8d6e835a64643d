import { isMap } from 'yaml';
import type { EngineContext } from '../../engine/engine-context';
import { HttpError } from '../../platform/http/http-error';
import type { HttpRoute } from '../../platform/http/router';
import { ConfigFileError, ConfigSyntaxError } from '../../platform/config/errors';
import { documentValues, parseConfigText, type WriteGuard } from '../../platform/config/config-store';
import { redactUrlCredentials } from '../../platform/logger';
import { SourceRejectedError } from '../core/stream-registry';
import { mergeIntoDocument } from '../streams-config';
import { readBody } from './read-body';
import { mayReadSecrets } from './secret-readers';

const SECRET_LINE = /^(\s*-?\s*(?:[\w-]*pass(?:word)?|[\w-]*secret[\w-]*|[\w-]*token|access_key|sk)\s*:\s*)(\S.*)$/i;

/**
 * The config as GET /api/config shows it to a client that may not read secrets (see
 * mayReadSecrets): secret values and URL credentials masked (go2rtc leaks them).
 */
export function maskConfigSecrets(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const match = SECRET_LINE.exec(line);
      return match ? `${match[1]}'***'` : redactUrlCredentials(line);
    })
    .join('\n');
}

const toBadRequest = (error: unknown): never => {
  if (error instanceof ConfigSyntaxError || error instanceof ConfigFileError || error instanceof SourceRejectedError)
    throw new HttpError(400, error.message);
  throw error;
};

/** GET/POST/PATCH /api/config; `guard` decides what a write from the API may change. */
export function configRoutes(ctx: EngineContext, guard: WriteGuard): HttpRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/config',
      handler: ({ req, res }) => {
        const text = ctx.config.raw();
        res.writeHead(200, { 'Content-Type': 'application/yaml; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(mayReadSecrets(ctx, req) ? text : maskConfigSecrets(text));
      },
    },
    {
      method: 'POST',
      path: '/api/config',
      handler: async ({ req, res }) => {
        const body = await readBody(req);
        await ctx.config.replace(body, guard).catch(toBadRequest);
        res.writeHead(200).end();
      },
    },
    {
      method: 'PATCH',
      path: '/api/config',
      handler: async ({ req, res }) => {
        const body = await readBody(req);
        let patch: unknown;
        try {
          patch = documentValues(parseConfigText(body));
        } catch (error) {
          toBadRequest(error);
        }
        if (patch === null || patch === undefined) throw new HttpError(400, 'PATCH body is empty: send the YAML keys to change');
        if (typeof patch !== 'object' || Array.isArray(patch)) throw new HttpError(400, 'PATCH body must be a YAML mapping');
        await ctx.config
          .update((doc) => {
            if (!isMap(doc.contents)) doc.contents = doc.createNode({});
            mergeIntoDocument(doc, patch as Record<string, unknown>);
          }, guard)
          .catch(toBadRequest);
        res.writeHead(200).end();
      },
    },
  ];
}
