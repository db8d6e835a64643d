import type { ProtocolContext } from '../protocol-context';
import { aacOutput } from './aac-output';
import { flvOutput } from './flv-output';
import { serveLiveOutput, type LiveOutputDeps } from './live-output';
import { tsOutput } from './ts-output';
import { serveY4m } from './y4m-output';

/** GET of stream.ts, stream.flv, stream.aac and stream.y4m (the POSTs of ts and flv are uploads, see ingest). */
export function registerRawStreams({ ctx, streams, tasks, logger }: ProtocolContext): void {
  const deps: LiveOutputDeps = { streams, tasks, callersAuthenticated: !!ctx.settings.api.username, logger: logger.child('raw') };
  ctx.http.add([
    { method: ['GET', 'HEAD'], path: '/api/stream.ts', handler: (request) => serveLiveOutput(deps, request, tsOutput) },
    { method: ['GET', 'HEAD'], path: '/api/stream.flv', handler: (request) => serveLiveOutput(deps, request, flvOutput) },
    { method: ['GET', 'HEAD'], path: '/api/stream.aac', handler: (request) => serveLiveOutput(deps, request, aacOutput) },
    { method: ['GET', 'HEAD'], path: '/api/stream.y4m', handler: (request) => serveY4m(deps, request) },
  ]);
}
