import type { IncomingMessage } from 'node:http';
import { isMap } from 'yaml';
import type { EngineContext } from '../../engine/engine-context';
import { HttpError } from '../../platform/http/http-error';
import { isLoopbackAddress } from '../../platform/http/request-guard';
import { ConfigFileError, ConfigSyntaxError } from '../../platform/config/errors';
import { parseConfigText } from '../../platform/config/config-store';
import { redactUrlCredentials } from '../../platform/logger';
import { mergeIntoDocument } from '../streams-config';
import { readBody } from './read-body';

const SECRET_LINE = /^(\s*-?\s*(?:[\w-]*pass(?:word)?|[\w-]*secret[\w-]*|[\w-]*token|access_key|sk)\s*:\s*)(\S.*)$/i;

/**
 * The config as GET /api/config shows it to a client that is neither authenticated nor on a
 * loopback-only server: secret values and URL credentials masked (go2rtc leaks them).
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
  if (error instanceof ConfigSyntaxError || error instanceof ConfigFileError) throw new HttpError(400, error.message);
  throw error;
};

/** GET/POST/PATCH /api/config. */
export function registerConfigRoutes(ctx: EngineContext): void {
  const trusted = (req: IncomingMessage): boolean =>
    isLoopbackAddress(ctx.settings.api.host) || (!!ctx.settings.api.username && !!req.headers.authorization);

  ctx.http.route(
    '/api/config',
    async ({ req, res }) => {
      if (req.method === 'GET') {
        const text = ctx.config.raw();
        res.writeHead(200, { 'Content-Type': 'application/yaml; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(trusted(req) ? text : maskConfigSecrets(text));
        return;
      }
      const body = await readBody(req);
      if (req.method === 'POST') {
        await ctx.config.replace(body).catch(toBadRequest);
      } else {
        let patch: unknown;
        try {
          patch = parseConfigText(body).toJS();
        } catch (error) {
          toBadRequest(error);
        }
        if (patch === null || patch === undefined) throw new HttpError(400, 'PATCH body is empty: send the YAML keys to change');
        if (typeof patch !== 'object' || Array.isArray(patch)) throw new HttpError(400, 'PATCH body must be a YAML mapping');
        await ctx.config
          .update((doc) => {
            if (!isMap(doc.contents)) doc.contents = doc.createNode({});
            mergeIntoDocument(doc, patch as Record<string, unknown>);
          })
          .catch(toBadRequest);
      }
      res.writeHead(200).end();
    },
    ['GET', 'POST', 'PATCH'],
  );
}
