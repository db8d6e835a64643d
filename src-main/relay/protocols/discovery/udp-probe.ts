import { createSocket, type RemoteInfo } from 'node:dgram';

/** Where a discovery probe goes: a multicast group, a broadcast address or one device. */
export interface ProbeTarget {
  host: string;
  port: number;
}

export interface UdpProbe {
  target: ProbeTarget;
  message: Buffer;
  /** Sent this many times, 100 ms apart: devices miss single datagrams on a busy network. */
  repeat?: number;
  /**
   * Port to listen on. Devices that answer a broadcast by broadcasting back (DVRIP) reach only
   * a socket on their own port; others answer the sender, so an ephemeral port (0) is enough.
   */
  listenPort?: number;
  timeoutMs: number;
}

/** A broadcast address (the limited one, or a /24's directed one): sending there needs SO_BROADCAST. */
export const isBroadcast = (host: string) => host === '255.255.255.255' || /\.255$/.test(host);

/**
 * Sends a discovery datagram and collects every answer until the timeout: the raw replies with
 * who sent them, for the protocol's own parser. Never throws for silence; an empty list is an
 * answer (no devices), a socket that cannot be opened or a send the network refuses is an error.
 */
export async function udpProbe(probe: UdpProbe): Promise<Array<{ data: Buffer; from: RemoteInfo }>> {
  const socket = createSocket({ type: 'udp4', reuseAddr: true });
  const replies: Array<{ data: Buffer; from: RemoteInfo }> = [];
  socket.on('message', (data, from) => replies.push({ data, from }));
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(probe.listenPort ?? 0, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', () => undefined);
    if (isBroadcast(probe.target.host)) socket.setBroadcast(true);
    const repeat = probe.repeat ?? 1;
    for (let i = 0; i < repeat; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise<void>((resolve, reject) =>
        socket.send(probe.message, probe.target.port, probe.target.host, (error) => (error ? reject(error) : resolve())),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, probe.timeoutMs));
    return replies;
  } finally {
    socket.close();
  }
}
