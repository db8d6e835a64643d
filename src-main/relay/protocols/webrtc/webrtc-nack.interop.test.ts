import { GenericNack, RTCPeerConnection, RtcpTransportLayerFeedback, type RtpPacket } from 'werift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';
import { codecParameters } from './peer-helpers';

/**
 * A viewer that reports a lost packet with a NACK (RFC 4585 generic NACK) gets it again, the
 * same bytes, from the short history werift's sender keeps; `/api/streams` counts what was asked.
 * The viewer is werift itself, so the test decides exactly which packet is "lost".
 */
describe('NACK retransmission to WebRTC viewers', () => {
  let relay: RelayUnderTest;
  beforeAll(async () => {
    relay = await startRelay('  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');
  }, 60_000);
  afterAll(async () => {
    await relay?.stop();
  });

  it('a NACKed packet comes again with the same payload, and the viewer shows what it asked for', async () => {
    const pc = new RTCPeerConnection({
      codecs: {
        video: [
          codecParameters(
            {
              name: 'H264',
              clockRate: 90000,
              payloadType: 102,
              fmtp: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
            },
            'video',
          ),
        ],
        audio: [],
      },
      iceUseIpv6: false,
      iceAdditionalHostAddresses: ['127.0.0.1'],
    });
    const video = pc.addTransceiver('video', { direction: 'recvonly' });
    const received: RtpPacket[] = [];
    video.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => received.push(rtp)));
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) =>
      pc.iceGatheringState === 'complete' ? resolve() : pc.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve()),
    );
    const response = await fetch(`${relay.api}/api/webrtc?src=cam`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/sdp' },
      body: pc.localDescription!.sdp,
    });
    expect(response.status).toBe(201);
    await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
    try {
      await waitFor(() => (received.length >= 20 ? true : undefined), 20_000);
      const lost = received[10]!;
      const copy = Buffer.from(lost.payload);
      const asked = received.length;
      await video.dtlsTransport.sendRtcp([
        new RtcpTransportLayerFeedback({
          feedback: new GenericNack({
            senderSsrc: video.receiver.rtcpSsrc,
            mediaSourceSsrc: lost.header.ssrc,
            lost: [lost.header.sequenceNumber],
          }),
        }),
      ]);
      const again = await waitFor(
        () => received.slice(asked).find((rtp) => rtp.header.sequenceNumber === lost.header.sequenceNumber),
        5_000,
      );
      expect(Buffer.from(again.payload).equals(copy)).toBe(true);
      expect(again.header.timestamp).toBe(lost.header.timestamp);
      const info = (await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as {
        consumers: Array<{ format_name: string; nacked_packets?: number }>;
      };
      expect(info.consumers.find((c) => c.format_name === 'webrtc')?.nacked_packets).toBe(1);
    } finally {
      await pc.close();
    }
  }, 60_000);
});
