import { isIP } from 'node:net';

/**
 * What a client's SETUP `Transport` header asks for, as far as this server serves it: RTP in
 * interleaved frames on the RTSP connection, RTP over UDP to the client's own address, or a
 * refusal with the reason to send back (461).
 */
export type TransportChoice =
  | { kind: 'tcp'; rtpChannel: number; rtcpChannel: number }
  | { kind: 'udp'; rtpPort: number; rtcpPort: number; record: boolean }
  | { kind: 'refused'; reason: string };

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same peer; IPv6 compares case-insensitively. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return (mapped ? mapped[1]! : address).toLowerCase();
}

function parsePortRange(value: string): [number, number] | undefined {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const rtp = Number(match[1]);
  const rtcp = match[2] === undefined ? rtp + 1 : Number(match[2]);
  if (rtp < 1 || rtp > 65535 || rtcp < 1 || rtcp > 65535) return undefined;
  return [rtp, rtcp];
}

/** One transport spec of the header (`RTP/AVP;unicast;client_port=5000-5001`). */
function parseSpec(spec: string, peerAddress: string): TransportChoice {
  const [protocol = '', ...rest] = spec.split(';').map((part) => part.trim());
  const params = new Map<string, string>();
  for (const part of rest) {
    if (!part) continue;
    const equals = part.indexOf('=');
    const key = (equals < 0 ? part : part.slice(0, equals)).trim().toLowerCase();
    const value =
      equals < 0
        ? ''
        : part
            .slice(equals + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    params.set(key, value);
  }
  if (/^RTP\/AVP\/TCP$/i.test(protocol)) {
    const channels = /^(\d+)(?:-(\d+))?$/.exec(params.get('interleaved') ?? '');
    if (!channels) return { kind: 'refused', reason: 'RTP/AVP/TCP needs interleaved=<rtp>-<rtcp>' };
    const rtpChannel = Number(channels[1]);
    return { kind: 'tcp', rtpChannel, rtcpChannel: channels[2] === undefined ? rtpChannel + 1 : Number(channels[2]) };
  }
  if (!/^RTP\/AVP(\/UDP)?$/i.test(protocol))
    return { kind: 'refused', reason: `transport ${protocol || '(none)'} is not served; use RTP/AVP (UDP) or RTP/AVP/TCP` };
  // The server only ever sends to the address the RTSP request came from, so it cannot be
  // used to flood a third party (or a multicast group) with a stream.
  if (params.has('multicast')) return { kind: 'refused', reason: 'multicast is not served; ask for unicast' };
  const destination = params.get('destination');
  if (destination && (!isIP(destination) || normalizeAddress(destination) !== normalizeAddress(peerAddress))) {
    return {
      kind: 'refused',
      reason: `destination ${destination} is not the client's own address; RTP goes only to the address of the RTSP connection`,
    };
  }
  const ports = params.get('client_port');
  if (ports === undefined) return { kind: 'refused', reason: 'RTP/AVP over UDP needs client_port=<rtp>-<rtcp>' };
  const range = parsePortRange(ports);
  if (!range) return { kind: 'refused', reason: `client_port=${ports} is not a port pair (1-65535)` };
  return { kind: 'udp', rtpPort: range[0], rtcpPort: range[1], record: (params.get('mode') ?? '').toLowerCase() === 'record' };
}

/**
 * Picks the first transport of the header this server serves (a client may offer several,
 * comma-separated, in its order of preference); when none is served, the first refusal.
 */
export function chooseTransport(header: string, peerAddress: string): TransportChoice {
  const specs = header.split(',').filter((spec) => spec.trim() !== '');
  if (specs.length === 0) return { kind: 'refused', reason: 'the Transport header is missing' };
  const choices = specs.map((spec) => parseSpec(spec, peerAddress));
  return choices.find((choice) => choice.kind !== 'refused') ?? choices[0]!;
}

/** The SETUP answer for a UDP viewer. */
export function formatUdpTransport(
  client: { rtpPort: number; rtcpPort: number },
  server: { rtpPort: number; rtcpPort: number },
  ssrc: number,
): string {
  const hex = (ssrc >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return `RTP/AVP;unicast;client_port=${client.rtpPort}-${client.rtcpPort};server_port=${server.rtpPort}-${server.rtcpPort};ssrc=${hex}`;
}
