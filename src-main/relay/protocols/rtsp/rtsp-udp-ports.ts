import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';

export interface RtpSocketPair {
  /** Bound to an even port. */
  rtp: Socket;
  /** Bound to the odd port right above it. */
  rtcp: Socket;
}

class NoPortPairError extends Error {
  override name = 'NoPortPairError';
}

/** Binds `socket` to `port` (0: any); resolves the bound port, or undefined when it is taken. */
function bind(socket: Socket, port: number, address: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      socket.off('listening', onListening);
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(undefined);
      else reject(error);
    };
    const onListening = () => {
      socket.off('error', onError);
      resolve(socket.address().port);
    };
    socket.once('error', onError);
    socket.once('listening', onListening);
    socket.bind({ port, address, exclusive: true });
  });
}

/** Closes both sockets of a pair, whatever state they are in. */
export function closeRtpPair(pair: RtpSocketPair): void {
  closeQuietly(pair.rtp);
  closeQuietly(pair.rtcp);
}

function closeQuietly(socket: Socket): void {
  try {
    socket.close();
  } catch {
    /* never bound, or closed already */
  }
}

/**
 * Binds an RTP/RTCP pair on `address` (RFC 3550: RTP on an even port, RTCP on the next one).
 * Ports come from the system's ephemeral range; an odd pick or a busy neighbour is retried.
 */
export async function bindRtpPair(address: string, attempts = 64): Promise<RtpSocketPair> {
  const type = isIPv6(address) ? 'udp6' : 'udp4';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const first = createSocket({ type });
    const second = createSocket({ type });
    try {
      const port = await bind(first, 0, address);
      if (port === undefined) throw new NoPortPairError(`no free UDP port on ${address}`);
      // An even pick is the RTP half and needs the port above; an odd pick is the RTCP half.
      const even = port % 2 === 0;
      const neighbour = even ? port + 1 : port - 1;
      if (neighbour <= 65535 && (await bind(second, neighbour, address)) !== undefined) {
        return even ? { rtp: first, rtcp: second } : { rtp: second, rtcp: first };
      }
    } catch (error) {
      closeQuietly(first);
      closeQuietly(second);
      throw error;
    }
    closeQuietly(first);
    closeQuietly(second);
  }
  throw new NoPortPairError(`no free even/odd UDP port pair on ${address} after ${attempts} tries`);
}
