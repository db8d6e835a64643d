import type { MediaStreamTrack, RTCRtpTransceiver, RtpPacket as WeriftRtpPacket } from 'werift';
import { learnParameterSets } from '../../media/codecs/h264/stap-a';
import type { Media } from '../../core/media';
import type { ConnectionInfo, ProducerConnection } from '../../core/producer';
import type { RtpPacket } from '../../core/rtp-packet';
import { RtpLossCounter } from '../../core/rtp-loss';

/**
 * A peer that sends media into the relay (a WHIP publisher, or another server a `webrtc:` source
 * watches) as a producer of the stream: werift's received RTP in the relay's packet model, its
 * H.264 parameter sets learned, keyframes asked for with a PLI, its loss counted.
 */
export class WebrtcProducer implements ProducerConnection {
  private sink?: (mediaIndex: number, packet: RtpPacket) => void;
  private bytes = 0;
  private readonly ssrcs = new Map<number, number>();
  private readonly losses: RtpLossCounter[] = [];
  private readonly parameterSets: Array<{ sps?: Uint8Array; pps?: Uint8Array }> = [];

  constructor(
    readonly medias: Media[],
    private readonly transceivers: RTCRtpTransceiver[],
    private readonly label: { remote: string; userAgent: string; protocol?: string; url?: string },
    readonly closed: Promise<Error | undefined>,
    private readonly onClose: () => void,
  ) {
    transceivers.forEach((transceiver, index) => {
      // werift may have made the track while applying the offer, before this publisher existed.
      const seen = new Set<MediaStreamTrack>();
      const receive = (track: MediaStreamTrack) => {
        if (seen.has(track)) return;
        seen.add(track);
        track.onReceiveRtp.subscribe((rtp) => this.receive(index, rtp));
      };
      transceiver.receiver.tracks.forEach(receive);
      transceiver.onTrack.subscribe(receive);
    });
  }

  private receive(index: number, rtp: WeriftRtpPacket): void {
    this.ssrcs.set(index, rtp.header.ssrc);
    (this.losses[index] ??= new RtpLossCounter()).note(rtp.header.sequenceNumber);
    const codec = this.medias[index]?.codecs[0];
    if (codec?.name === 'H264') {
      // The codec object is the one the stream's track and every negotiation read.
      const learned = learnParameterSets(codec.fmtp, rtp.payload, (this.parameterSets[index] ??= {}));
      if (learned) codec.fmtp = learned;
    }
    this.bytes += rtp.payload.length;
    this.sink?.(index, {
      marker: rtp.header.marker,
      payloadType: rtp.header.payloadType,
      sequenceNumber: rtp.header.sequenceNumber,
      timestamp: rtp.header.timestamp,
      ssrc: rtp.header.ssrc,
      // A copy: the GOP cache keeps packets for later viewers, and werift's buffer is not ours to keep.
      payload: Uint8Array.prototype.slice.call(rtp.payload),
    });
  }

  /** Where the peer's media comes from, once it reached the shared ICE port. */
  remoteAt(address: string): void {
    this.label.remote = address;
  }

  start(sink: (mediaIndex: number, packet: RtpPacket) => void): void {
    this.sink = sink;
  }

  requestKeyframe(mediaIndex: number): void {
    const ssrc = this.ssrcs.get(mediaIndex);
    if (ssrc !== undefined) void this.transceivers[mediaIndex]?.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
  }

  /** The stream is done with the peer (deleted, or the relay stops): the session ends too. */
  close(): void {
    this.sink = undefined;
    this.onClose();
  }

  info(): ConnectionInfo {
    return {
      format_name: 'webrtc',
      protocol: this.label.protocol ?? 'webrtc',
      remote_addr: this.label.remote,
      url: this.label.url,
      user_agent: this.label.userAgent,
      medias: this.medias.map((m) => `${m.kind}, recvonly, ${m.codecs[0]?.name ?? ''}`),
      bytes_recv: this.bytes,
      packets_lost: this.losses.reduce((sum, counter) => sum + counter.lost, 0),
    };
  }
}
