export interface PortPair {
  rtpPort: number;
  rtcpPort: number;
}

/** The SETUP `Transport` the client asks with for RTP over UDP to its own port pair. */
export function formatClientUdpTransport(client: PortPair): string {
  return `RTP/AVP;unicast;client_port=${client.rtpPort}-${client.rtcpPort}`;
}

/** A server that answered a UDP SETUP with another transport (interleaved TCP, multicast). */
export class UdpNotGrantedError extends Error {
  override name = 'UdpNotGrantedError';
}

/**
 * Whether a SETUP failed because the server does not serve RTP over UDP: it answered 461
 * Unsupported Transport, or granted something else. Either way TCP is the next thing to try.
 */
export function isUnsupportedTransport(error: unknown): boolean {
  return error instanceof UdpNotGrantedError || (error instanceof Error && /\bSETUP answered 461\b/.test(error.message));
}

/**
 * The server's side of a granted UDP transport: its RTP/RTCP ports (where receiver reports and
 * backchannel RTP go; absent when the server does not say). `undefined` when the answer is not
 * RTP over UDP at all (a server that switched to interleaved TCP, or to multicast).
 */
export function parseServerUdpTransport(header: string): { server?: PortPair } | undefined {
  const [protocol = '', ...rest] = (header.split(',')[0] ?? '').split(';').map((part) => part.trim());
  if (!/^RTP\/AVP(\/UDP)?$/i.test(protocol)) return undefined;
  const params = new Map<string, string>();
  for (const part of rest) {
    const equals = part.indexOf('=');
    params.set((equals < 0 ? part : part.slice(0, equals)).toLowerCase(), equals < 0 ? '' : part.slice(equals + 1));
  }
  if (params.has('interleaved') || params.has('multicast')) return undefined;
  const ports = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(params.get('server_port') ?? '');
  if (!ports) return {};
  const rtpPort = Number(ports[1]);
  const rtcpPort = ports[2] === undefined ? rtpPort + 1 : Number(ports[2]);
  if (rtpPort < 1 || rtpPort > 65535 || rtcpPort < 1 || rtcpPort > 65535) return {};
  return { server: { rtpPort, rtcpPort } };
}
