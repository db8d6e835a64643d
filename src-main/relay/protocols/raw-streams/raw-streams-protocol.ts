import type { ProtocolContext } from '../protocol-context';
import { aacOutput } from './aac-output';
import { flvOutput } from './flv-output';
import { serveLiveOutput, type LiveOutputDeps } from './live-output';
import { tsOutput } from './ts-output';
import { serveY4m } from './y4m-output';

/** GET of stream.ts, stream.flv, stream.aac and stream.y4m (the POSTs of ts and flv are uploads, see ingest). */
export function registerRawStreams({ ctx, streams, tasks, logger }: ProtocolContext): void {
  const deps: LiveOutputDeps = { streams, tasks, callersAuthenticated: !!ctx.settings.api.username, logger: logger.child('raw') };
  ctx.http.route('/api/stream.ts', (request) => serveLiveOutput(deps, request, tsOutput), ['GET', 'HEAD']);
  ctx.http.route('/api/stream.flv', (request) => serveLiveOutput(deps, request, flvOutput), ['GET', 'HEAD']);
  ctx.http.route('/api/stream.aac', (request) => serveLiveOutput(deps, request, aacOutput), ['GET', 'HEAD']);
  ctx.http.route('/api/stream.y4m', (request) => serveY4m(deps, request), ['GET', 'HEAD']);
}
