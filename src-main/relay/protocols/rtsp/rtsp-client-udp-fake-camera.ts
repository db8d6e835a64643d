import type { Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { formatResponse, interleavedFrame, RtspParser } from './rtsp-parser';
import { bindRtpPair, type RtpSocketPair } from './rtsp-udp-ports';

export interface FakeUdpCamera {
  url: string;
  /** `METHOD Transport` of every request, per connection, in order. */
  requests: string[][];
  /** Datagrams that came in on the camera's RTP and RTCP ports (punches, receiver reports). */
  rtpIn: Buffer[];
  rtcpIn: Buffer[];
  /** The client's ports from the last UDP SETUP. */
  clientPorts?: { rtpPort: number; rtcpPort: number };
  /** The camera's own UDP sockets (undefined until a UDP SETUP). */
  sockets?: RtpSocketPair;
  /** Sends RTP to the client: over UDP from the camera's RTP port, or interleaved on channel 0. */
  sendRtp(packet: Uint8Array): void;
  /** Sends RTCP to the client's RTCP port. */
  sendRtcp(packet: Uint8Array): void;
  close(): Promise<void>;
}

/**
 * A one-media (PCMU) camera speaking real RTSP on loopback, for the client's UDP transport: it
 * grants `RTP/AVP;unicast;client_port=...` with its own even/odd port pair, or with
 * `refuseUdp` answers a UDP SETUP with 461 as TCP-only cameras do. It sends only what a test
 * tells it to, so tests control sequence numbers exactly.
 */
export async function startFakeUdpCamera(options: { refuseUdp?: boolean } = {}): Promise<FakeUdpCamera> {
  const connections = new Set<Socket>();
  let tcpPlayer: Socket | undefined;
  const camera: Omit<FakeUdpCamera, 'url' | 'close'> = {
    requests: [],
    rtpIn: [],
    rtcpIn: [],
    sendRtp(packet) {
      if (camera.sockets && camera.clientPorts) camera.sockets.rtp.send(packet, camera.clientPorts.rtpPort, '127.0.0.1');
      else tcpPlayer?.write(interleavedFrame(0, packet));
    },
    sendRtcp(packet) {
      if (camera.sockets && camera.clientPorts) camera.sockets.rtcp.send(packet, camera.clientPorts.rtcpPort, '127.0.0.1');
    },
  };
  const keep = (list: Buffer[]) => (data: Buffer) => list.push(data);

  const server: Server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    const seen: string[] = [];
    camera.requests.push(seen);
    const parser = new RtspParser();
    socket.on('data', (data: Buffer) => {
      for (const chunk of parser.push(data)) {
        if (chunk.type !== 'request') continue;
        const transport = chunk.headers.get('transport') ?? '';
        seen.push(`${chunk.method} ${transport}`.trim());
        const reply = (status: number, reason: string, headers: Record<string, string> = {}, body = '') =>
          socket.write(
            formatResponse(status, reason, { CSeq: chunk.headers.get('cseq') ?? '0', Session: '87654321;timeout=60', ...headers }, body),
          );
        if (chunk.method === 'DESCRIBE') {
          const sdp =
            [
              'v=0',
              'o=- 1 1 IN IP4 127.0.0.1',
              's=camera',
              'c=IN IP4 0.0.0.0',
              't=0 0',
              'm=audio 0 RTP/AVP 0',
              'a=rtpmap:0 PCMU/8000',
              'a=control:track1',
              'a=recvonly',
            ].join('\r\n') + '\r\n';
          reply(200, 'OK', { 'Content-Type': 'application/sdp', 'Content-Base': `${chunk.uri}/` }, sdp);
        } else if (chunk.method === 'SETUP' && transport.includes('interleaved=')) {
          reply(200, 'OK', { Transport: 'RTP/AVP/TCP;unicast;interleaved=0-1' });
        } else if (chunk.method === 'SETUP') {
          const ports = /client_port=(\d+)-(\d+)/.exec(transport);
          if (options.refuseUdp || !ports) {
            reply(461, 'Unsupported Transport');
            continue;
          }
          camera.clientPorts = { rtpPort: Number(ports[1]), rtcpPort: Number(ports[2]) };
          void bindRtpPair('127.0.0.1').then((sockets) => {
            camera.sockets = sockets;
            sockets.rtp.on('message', keep(camera.rtpIn));
            sockets.rtcp.on('message', keep(camera.rtcpIn));
            reply(200, 'OK', {
              Transport: `RTP/AVP;unicast;client_port=${ports[1]}-${ports[2]};server_port=${sockets.rtp.address().port}-${sockets.rtcp.address().port}`,
            });
          });
        } else {
          if (chunk.method === 'PLAY') tcpPlayer = socket;
          reply(200, 'OK', chunk.method === 'OPTIONS' ? { Public: 'OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER' } : {});
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  let closing: Promise<void> | undefined;
  return Object.assign(camera, {
    url: `rtsp://127.0.0.1:${port}/cam`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        for (const socket of [camera.sockets?.rtp, camera.sockets?.rtcp] as Array<UdpSocket | undefined>) socket?.close();
        server.close(() => resolve());
      })),
  });
}
