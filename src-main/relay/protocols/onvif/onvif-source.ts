import type { ProtocolContext } from '../protocol-context';
import { parseOnvifUrl, resolveOnvifStream } from './onvif-client';

/**
 * `onvif://user:pass@host[:port][?subtype=<profile>]` sources: the camera's ONVIF service says
 * where it streams (its RTSP address), and the relay plays that, asking again on every dial
 * (a camera may hand out another address after a reboot).
 */
export function registerOnvifSource({ schemes }: ProtocolContext): void {
  schemes.register('onvif', {
    async dial(url, context) {
      const rtsp = await resolveOnvifStream(parseOnvifUrl(url), context.signal);
      const handler = schemes.resolve(rtsp);
      if (!handler) throw new Error(`the camera streams on ${new URL(rtsp).protocol}, which the relay does not play`);
      return handler.dial(rtsp, context);
    },
  });
}
