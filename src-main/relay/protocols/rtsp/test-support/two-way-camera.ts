import { createServer, type Server, type Socket } from 'node:net';
import { parseRtpPacket, type RtpPacket } from '@main/relay/core/rtp-packet';
import { formatResponse, RtspParser } from '../rtsp-parser';

export interface TwoWayCamera {
  url: string;
  /** RTP packets the camera received on its speaker (backchannel) channel. */
  received: RtpPacket[];
  /** The Require headers seen on DESCRIBE (to check the ONVIF tag was asked for). */
  describeRequires: string[];
  /** `METHOD require-header` of every request after DESCRIBE, in order. */
  laterRequests: string[];
  close(): Promise<void>;
}

/**
 * A camera with an ONVIF backchannel, speaking real RTSP on loopback: when DESCRIBE carries
 * `Require: www.onvif.org/ver20/backchannel` its SDP adds a `sendonly` PCMA (and PCMU) audio
 * media, and what the client sends on that channel is recorded. Without the tag it refuses
 * with 551, as many cameras do, unless `acceptsPlainDescribe`. With `refusesBackchannelSetup` it
 * lists the speaker and then refuses to set it up, as some firmware does.
 */
export async function startTwoWayCamera(
  options: { acceptsPlainDescribe?: boolean; refusesBackchannelSetup?: boolean } = {},
): Promise<TwoWayCamera> {
  const received: RtpPacket[] = [];
  const describeRequires: string[] = [];
  const laterRequests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const parser = new RtspParser();
    let backchannelChannel = -1;
    let setups = 0;
    socket.on('data', (data: Buffer) => {
      for (const chunk of parser.push(data)) {
        if (chunk.type === 'frame') {
          if (chunk.channel === backchannelChannel) received.push(parseRtpPacket(chunk.payload));
          continue;
        }
        if (chunk.type !== 'request') continue;
        const cseq = chunk.headers.get('cseq') ?? '0';
        const reply = (status: number, reason: string, headers: Record<string, string> = {}, body = '') =>
          socket.write(formatResponse(status, reason, { CSeq: cseq, Session: '12345678', ...headers }, body));
        const require = chunk.headers.get('require') ?? '';
        if (chunk.method !== 'DESCRIBE' && chunk.method !== 'OPTIONS') laterRequests.push(`${chunk.method} ${require}`.trim());
        switch (chunk.method) {
          case 'OPTIONS':
            reply(200, 'OK', { Public: 'OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER' });
            break;
          case 'DESCRIBE': {
            describeRequires.push(require);
            const twoWay = require.includes('www.onvif.org/ver20/backchannel');
            if (!twoWay && !options.acceptsPlainDescribe) {
              reply(551, 'Option not supported', { Unsupported: require });
              break;
            }
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
                ...(twoWay
                  ? ['m=audio 0 RTP/AVP 8 0', 'a=rtpmap:8 PCMA/8000', 'a=rtpmap:0 PCMU/8000', 'a=control:track2', 'a=sendonly']
                  : []),
              ].join('\r\n') + '\r\n';
            reply(200, 'OK', { 'Content-Type': 'application/sdp', 'Content-Base': `${chunk.uri}/` }, sdp);
            break;
          }
          case 'SETUP': {
            const channel = Number(/interleaved=(\d+)/.exec(chunk.headers.get('transport') ?? '')?.[1] ?? setups * 2);
            if (chunk.uri.endsWith('track2') && options.refusesBackchannelSetup) {
              reply(461, 'Unsupported Transport');
              break;
            }
            if (chunk.uri.endsWith('track2')) backchannelChannel = channel;
            setups++;
            reply(200, 'OK', { Transport: `RTP/AVP/TCP;unicast;interleaved=${channel}-${channel + 1}` });
            break;
          }
          default:
            reply(200, 'OK');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `rtsp://127.0.0.1:${port}/onvif`,
    received,
    describeRequires,
    laterRequests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
