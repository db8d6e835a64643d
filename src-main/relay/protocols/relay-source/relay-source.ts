import { parseRemoteStreamSource } from '@shared/contract/relays';
import { remoteRelays } from '@main/relays/relays-capability';
import type { ProtocolContext } from '../protocol-context';

/** A dial that the same answer would refuse again: the waiting viewer is told at once (see dial-refusal.ts). */
class RelaySourceError extends Error {
  override name = 'RelaySourceError';
  readonly permanent = true;
}

/**
 * `relay://<relay>/<stream>`: stream `stream` of the remote relay named in the config's
 * `relays:`, pulled from its RTSP server with its login as go2rtc chains relays (one relay a
 * source of the next). The relays module says where that is (its capability); this only dials.
 * The name is only a name: the address is always `rtsp://` on the relay's own host.
 */
export function registerRelaySource({ ctx, schemes }: ProtocolContext): void {
  schemes.register('relay', {
    async dial(url, context) {
      const named = parseRemoteStreamSource(url);
      if (!named) throw new RelaySourceError(`a relay:// source is relay://<relay>/<stream>, not ${url.slice(0, 200)}`);
      const relays = ctx.capabilities.get(remoteRelays);
      if (!relays) throw new Error('relay:// sources play remote relays, which are not running yet');
      const rtsp = await relays.rtspSource(named.relay, named.name, context.signal);
      const handler = schemes.resolve(rtsp);
      if (!handler) throw new RelaySourceError('the relay plays no rtsp:// sources');
      return handler.dial(rtsp, context);
    },
  });
}
