import { Server } from 'node:net';
import type { ProtocolContext } from '../protocol-context';
import type { RunningRtspServer } from './rtsp-server';
import type { SchemeRegistry } from '../../core/scheme-registry';

/**
 * Registers a protocol whose sources publish back into the relay's RTSP server (ffmpeg:, exec:).
 * Without the server (rtsp.listen empty, or its port taken) the scheme is registered all the
 * same, so the streams using it stay listed, and every dial fails with a sentence saying the
 * RTSP server is needed; /api/streams shows it on the producer, and the log says it once.
 */
export function registerWithRtspServer(
  protocols: ProtocolContext,
  server: RunningRtspServer | undefined,
  register: (protocols: ProtocolContext, server: RunningRtspServer) => void,
): void {
  if (server) {
    register(protocols, server);
    return;
  }
  const why =
    protocols.rtsp.listen === ''
      ? 'the RTSP server is off (rtsp.listen is empty)'
      : `the RTSP server is not running (it could not listen on ${protocols.rtsp.listen})`;
  let logged = false;
  const refusing: SchemeRegistry = {
    ...protocols.schemes,
    register(scheme, handler) {
      const message = `${scheme}: sources publish through the relay's RTSP server, and ${why}`;
      protocols.schemes.register(scheme, {
        ...handler,
        // Refused before the child process is spawned: an exec: command must not run for nothing.
        dial: async () => {
          if (!logged) protocols.logger.error(message);
          logged = true;
          throw new Error(message);
        },
      });
    },
  };
  // Never reached (every dial is refused above); it only stands where the protocol expects a server.
  const absent: RunningRtspServer = {
    port: 0,
    server: new Server(),
    expectPublish: () => Promise.reject(new Error(why)),
    close: async () => undefined,
  };
  register({ ...protocols, schemes: refusing }, absent);
}
