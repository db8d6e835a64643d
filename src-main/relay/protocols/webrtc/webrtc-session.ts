import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RTCPeerConnection, RTCRtpCodecParameters, RtcpRrPacket } from 'werift';
import { werift } from './werift-module';
import { HttpError } from '@main/platform/http/http-error';
import { CodecMismatchError, SourceUnavailableError, type Stream } from '../../core/stream';
import type { TaskRegistry } from '../../core/task-registry';
import { answerCodec, describeOffer, viewerRequests } from './offer-codecs';
import { WebrtcConsumer } from './webrtc-consumer';
import { trackSender, viewerRtcpReader, type DirectPath } from './srtp/werift-media-path';
import { useViewerSrtpProfiles } from './srtp/viewer-srtp-profile';
import type { IceNetwork } from './ice/ice-network';
import { answerAsDtlsServer } from './dtls-server-role';
import { FinishedGate } from './finished-gate';
import { codecParameters, CONNECT_TIMEOUT_MS, iceGathered, onPeerGone, parseOffer, startDtlsAtOnce } from './peer-helpers';
import { noteTranscodedAudio, opusNeed } from './opus-for-viewer';
import type { OpusTranscoders } from './opus-transcoders';

export interface WebrtcSession {
  readonly id: string;
  /** The SDP answer, with every candidate in it (no trickle needed). */
  readonly answer: string;
  /** A candidate the viewer found after its offer went out (trickle ICE). */
  addRemoteCandidate(candidate: string, sdpMid?: string): Promise<void>;
  /** ICE and DTLS are up: the session no longer needs its signalling channel. */
  isConnected(): boolean;
  close(reason: string): void;
}

/** Where WebRTC sessions run: the shared ICE port, and Opus for streams whose audio browsers cannot play. */
export interface WebrtcOutput {
  network: IceNetwork;
  opus?: OpusTranscoders;
}

/** The other side of a session: an HTTP or WebSocket client, or a peer that came through a tracker. */
export interface SessionPeer {
  /** `address:port`, or what names the peer where there is no socket (`webtorrent:<peer id>`). */
  remote: string;
  userAgent: string;
}

/** The peer of a session signalled over this HTTP request or WebSocket. */
export const peerOfRequest = (request: IncomingMessage): SessionPeer => ({
  remote: `${request.socket.remoteAddress}:${request.socket.remotePort}`,
  userAgent: request.headers['user-agent'] ?? '',
});

export interface OpenSessionOptions extends WebrtcOutput {
  stream: Stream;
  streamName: string;
  offer: string;
  /** Who is on the other side, for /api/streams and the task list. */
  peer: SessionPeer;
  tasks: TaskRegistry;
  onClosed(session: WebrtcSession): void;
}

/**
 * One browser watching a stream: the offer decides what it may get, the stream what it has; the
 * consumer is attached before the answer (so a codec mismatch is a 400 naming both sides), and
 * its packets flow once ICE and DTLS are up, starting with the cached GOP.
 */
export async function openWebrtcSession(options: OpenSessionOptions): Promise<WebrtcSession> {
  const { stream, peer, tasks } = options;
  const offered = parseOffer(options.offer, 'sendonly');
  const requests = viewerRequests(offered);
  if (requests.length === 0) {
    throw new HttpError(
      400,
      `no codec of the offer can be sent: it offers ${describeOffer(offered)}; the relay sends video H264 (packetization-mode 1), H265, VP8, VP9 or AV1, audio OPUS, PCMA or PCMU`,
    );
  }

  const id = randomUUID();
  let closed = false;
  let pc: RTCPeerConnection | undefined;
  let untrack = () => undefined as void;
  let release = () => undefined as void;
  let releaseOpus = () => undefined as void;
  let timer: NodeJS.Timeout | undefined;
  const finished = new FinishedGate();
  const consumer = new WebrtcConsumer(requests, peer, (reason) => session.close(reason));
  const session: WebrtcSession = {
    id,
    answer: '',
    isConnected: () => !closed && pc?.connectionState === 'connected',
    async addRemoteCandidate(candidate, sdpMid) {
      if (!pc || closed || candidate.trim() === '') return;
      await pc.addIceCandidate({ candidate: candidate.replace(/^a=/, ''), sdpMid: sdpMid ?? pc.getTransceivers()[0]?.mid ?? '0' });
    },
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      finished.close();
      stream.removeConsumer(consumer);
      consumer.stop();
      void pc?.close().catch(() => undefined);
      untrack();
      release();
      releaseOpus();
      options.onClosed(session);
    },
  };

  try {
    await stream.addConsumer(consumer);
  } catch (error) {
    if (error instanceof CodecMismatchError) throw new HttpError(400, `${error.message} (the offer has ${describeOffer(offered)})`);
    if (error instanceof SourceUnavailableError) throw new HttpError(503, error.message);
    throw error;
  }
  untrack = tasks.add('consumer', `webrtc ${options.streamName} ${peer.remote}`);

  // Audio the viewer cannot play (AAC): Opus from the stream's shared transcoder, attached anew.
  // A transcoder that cannot start leaves the viewer its picture (the answer then has no audio).
  const opus = options.opus ? opusNeed(offered, consumer, stream, options.streamName) : undefined;
  const transcoded = opus && options.opus ? await options.opus.hold(stream, options.streamName).catch(() => undefined) : undefined;
  if (transcoded) releaseOpus = transcoded;
  if (transcoded && opus?.reattach) {
    stream.removeConsumer(consumer);
    consumer.detachAll();
    try {
      await stream.addConsumer(consumer);
    } catch (error) {
      session.close('the stream could not be attached again');
      throw new HttpError(503, `the stream could not be attached with Opus audio: ${(error as Error).message}`);
    }
  }
  const transcodedFrom = transcoded ? opus?.from : undefined;

  try {
    // One codec per kind, the offer's own entry: the answer then speaks the browser's payload types.
    const chosen = consumer.tracks.map((track) => {
      const media = offered.find((m) => m.kind === track.kind);
      return { track, codec: media ? answerCodec(media, track.source) : undefined };
    });
    const codecs: { video: RTCRtpCodecParameters[]; audio: RTCRtpCodecParameters[] } = { video: [], audio: [] };
    for (const { track, codec } of chosen)
      if (codec && codecs[track.kind].length === 0) codecs[track.kind].push(codecParameters(codec, track.kind));
    // An offered media the stream has nothing for is still answered (werift needs a codec to
    // answer with); no track is sent on it.
    for (const media of offered)
      if (codecs[media.kind].length === 0 && media.codecs[0]) codecs[media.kind].push(codecParameters(media.codecs[0], media.kind));
    const { RTCPeerConnection: PeerConnection, RtcpRrPacket: ReceiverReport, RtcpSrPacket: SenderReport } = werift();
    pc = new PeerConnection({ codecs, ...options.network.peerConfig() });
    for (const { track, codec } of chosen) {
      if (!codec) continue;
      const transceiver = pc.addTransceiver(track.output, { direction: 'sendonly' });
      // A viewer that lost the picture asks for a keyframe; sources that can send one on request do.
      transceiver.sender.onPictureLossIndication.subscribe(() => track.track.requestKeyframe());
      // Receiver reports carry the viewer's loss counts, for /api/streams.
      transceiver.sender.onRtcp.subscribe((rtcp) => {
        if (rtcp.type !== ReceiverReport.type && rtcp.type !== SenderReport.type) return;
        for (const report of (rtcp as RtcpRrPacket).reports) consumer.viewerReported(track.output, report);
      });
      consumer.sendAs(track.output, codec, transceiver.sender);
    }
    // The shared port's direct path is known once the answer is published, before any viewer connects.
    // ...and the viewer's SRTCP on it is read by the relay once DTLS is up (keys known).
    const route: { direct?: DirectPath; rtcp?: (datagram: Buffer) => boolean } = {};
    pc.connectionStateChange.subscribe((state) => {
      if (state !== 'connected') return;
      clearTimeout(timer);
      const transport = pc!.getTransceivers()[0]?.sender.dtlsTransport;
      route.rtcp = transport && viewerRtcpReader(transport, (items) => consumer.feedback(items));
      // The nominated pair is one of the shared UDP port's: media goes straight from the port.
      const direct = route.direct !== undefined && transport?.iceTransport.connection.nominated?.protocol.type === 'stun';
      finished.connected(direct, () => {
        if (!closed) consumer.start((sender, payloadType, clockRate) => trackSender(sender, payloadType, clockRate, route.direct));
      });
    });
    await pc.setRemoteDescription({ type: 'offer', sdp: options.offer });
    answerAsDtlsServer(pc, options.offer);
    await pc.setLocalDescription(await pc.createAnswer());
    useViewerSrtpProfiles(pc);
    startDtlsAtOnce(pc);
    await iceGathered(pc);
    const local = pc.localDescription?.sdp;
    if (!local) throw new Error('no answer was made');
    onPeerGone(pc, (why) => session.close(why));
    const published = await options.network.publish(local, {
      onRemote: (remote) => consumer.viewerAt(remote),
      onGone: () => session.close('the viewer went silent'),
      onRtcp: (datagram) => route.rtcp?.(datagram) ?? false,
      onFinishedSent: () => finished.finishedSent(),
    });
    release = published.release;
    route.direct = published.direct;
    const answer = transcodedFrom ? noteTranscodedAudio(published.sdp, transcodedFrom) : published.sdp;
    timer = setTimeout(() => session.close('the viewer never connected'), CONNECT_TIMEOUT_MS);
    timer.unref();
    return { ...session, answer };
  } catch (error) {
    session.close('the offer could not be answered');
    throw new HttpError(400, `the offer could not be answered: ${(error as Error).message}`);
  }
}
