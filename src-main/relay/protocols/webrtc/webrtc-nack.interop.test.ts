import { GenericNack, RTCPeerConnection, RtcpTransportLayerFeedback, type RtpPacket } from 'werift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';
import { loadRelayNative } from '../../native/native-addon';
import { codecParameters } from './peer-helpers';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp/srtp-keys';

/** A werift viewer of `cam` over WHEP on the relay's shared port, and every RTP packet it decrypts. */
async function whepViewer(api: string) {
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
  const response = await fetch(`${api}/api/webrtc?src=cam`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/sdp' },
    body: pc.localDescription!.sdp,
  });
  expect(response.status).toBe(201);
  await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
  /** Asks for `lost` again with a generic NACK, as a browser does. */
  const nack = (lost: RtpPacket) =>
    video.dtlsTransport.sendRtcp([
      new RtcpTransportLayerFeedback({
        feedback: new GenericNack({
          senderSsrc: video.receiver.rtcpSsrc,
          mediaSourceSsrc: lost.header.ssrc,
          lost: [lost.header.sequenceNumber],
        }),
      }),
    ]);
  /** The SRTP profile its DTLS handshake settled on. */
  const profile = () => video.dtlsTransport.srtp.config.profile;
  return { pc, received, nack, profile };
}

/**
 * A viewer that reports a lost packet with a NACK (RFC 4585 generic NACK) gets it again, the
 * same bytes, from the short history the relay keeps (the viewer's own sender for the cached GOP
 * it started with, the track's fan-out for live packets); `/api/streams` counts what was asked.
 * The viewers are werift itself, so the test decides exactly which packet is "lost".
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
    const { pc, received, nack } = await whepViewer(relay.api);
    try {
      await waitFor(() => (received.length >= 20 ? true : undefined), 20_000);
      const lost = received[10]!;
      const copy = Buffer.from(lost.payload);
      const asked = received.length;
      await nack(lost);
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

  it('viewers of one stream share its fan-out: each gets every live packet once, in its own numbering and keys, and a NACKed live packet comes again', async () => {
    const viewers = [await whepViewer(relay.api), await whepViewer(relay.api), await whepViewer(relay.api)];
    try {
      // Well past each one's cached GOP: live packets, sent to all three by the track's fan-out.
      await waitFor(() => (viewers.every((v) => v.received.length >= 150) ? true : undefined), 30_000);
      const settled = viewers.map((v) => v.received.length);
      await waitFor(() => (viewers.every((v, i) => v.received.length >= settled[i]! + 60) ? true : undefined), 30_000);
      const windows = viewers.map((v, i) => v.received.slice(settled[i]!, settled[i]! + 60));
      for (const window of windows) {
        // No gap and nothing twice: consecutive numbers, one SSRC, werift decrypted each with this viewer's keys.
        const numbers = window.map((rtp) => rtp.header.sequenceNumber);
        expect(numbers).toEqual(numbers.map((_, i) => (numbers[0]! + i) & 0xffff));
        expect(new Set(window.map((rtp) => rtp.header.ssrc)).size).toBe(1);
      }
      expect(new Set(windows.map((w) => w[0]!.header.ssrc)).size).toBe(3);
      // werift, DTLS server here, takes the relay's first offer: AES-GCM where the addon has it.
      expect(viewers.map((v) => v.profile())).toEqual(
        Array(3).fill(loadRelayNative()?.srtpGcm ? SRTP_AEAD_AES_128_GCM : SRTP_AES128_CM_HMAC_SHA1_80),
      );
      // The same pictures' packets, byte for byte, whatever each viewer's numbering.
      const key = (rtp: RtpPacket) => `${rtp.header.timestamp}:${Buffer.from(rtp.payload).toString('base64')}`;
      const first = new Set(viewers[0]!.received.map(key));
      for (const rtp of windows[1]!.concat(windows[2]!).slice(0, 40)) expect(first.has(key(rtp))).toBe(true);

      const { received, nack } = viewers[1]!;
      const lost = received[received.length - 20]!;
      const asked = received.length;
      await nack(lost);
      const again = await waitFor(
        () => received.slice(asked).find((rtp) => rtp.header.sequenceNumber === lost.header.sequenceNumber),
        5_000,
      );
      expect(Buffer.from(again.payload).equals(Buffer.from(lost.payload))).toBe(true);
      expect(again.header.timestamp).toBe(lost.header.timestamp);
    } finally {
      await Promise.all(viewers.map((v) => v.pc.close()));
    }
  }, 90_000);
});
