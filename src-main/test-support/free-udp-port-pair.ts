import { createSocket, type Socket } from 'node:dgram';

function bindUdp(port: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(undefined);
    });
    // The wildcard address, as ffmpeg and GStreamer bind their RTP receivers: a socket of any
    // other process on either port, whatever its address, makes their bind fail.
    socket.bind(port, '0.0.0.0', () => resolve(socket));
  });
}

/**
 * An even UDP port whose odd neighbour is free too, for a receiver told its RTP port up front
 * (ffmpeg reading an SDP file binds the port and the next one for RTCP). Both were free when
 * checked; another process may still take one before the receiver binds, so callers retry on
 * a bind failure.
 */
export async function freeUdpPortPair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const rtp = await bindUdp(0);
    if (!rtp) continue;
    const port = rtp.address().port;
    const rtcp = port % 2 === 0 && port < 65535 ? await bindUdp(port + 1) : undefined;
    rtp.close();
    rtcp?.close();
    if (rtcp) return port;
  }
  throw new Error('no free pair of UDP ports found in 50 tries');
}
