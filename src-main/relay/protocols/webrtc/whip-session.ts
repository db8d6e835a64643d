import { randomUUID } from 'node:crypto';
import type { RTCRtpCodecParameters } from 'werift';
import { werift } from './werift-module';
import { HttpError } from '@main/platform/http/http-error';
import type { Codec, Media, MediaKind } from '../../core/media';
import { parseSdp } from '../rtsp/sdp';
import { describeOffer } from './offer-codecs';
import { codecParameters, CONNECT_TIMEOUT_MS, iceGathered, onPeerGone, parseOffer } from './peer-helpers';
import type { OpenSessionOptions, WebrtcSession } from './webrtc-session';
import { WebrtcProducer } from './webrtc-producer';

/** What a publisher may send, in the order the relay takes them: passed through to every output as it comes. */
const PUBLISHED: Record<MediaKind, readonly string[]> = {
  video: ['H264', 'H265', 'VP8', 'VP9', 'AV1'],
  audio: ['OPUS', 'PCMA', 'PCMU'],
};

const acceptable = (codec: Codec) => codec.name !== 'H264' || /packetization-mode=1/.test(codec.fmtp ?? '');

/** The offer's entry the answer takes for a media: the relay's preferred codec among those offered. */
function publishedCodec(media: Media): Codec | undefined {
  for (const name of PUBLISHED[media.kind]) {
    const codec = media.codecs.find((c) => c.name === name && acceptable(c));
    if (codec) return codec;
  }
  return undefined;
}

/**
 * A browser or encoder publishing into a stream (WHIP, `POST /api/webrtc?dst=`): its tracks
 * become a pushed producer of the stream, as an RTSP ANNOUNCE or an upload does, for as long as
 * the peer connection lasts. Viewers that join ask the publisher for a keyframe with a PLI.
 */
export async function openWhipSession(options: OpenSessionOptions): Promise<WebrtcSession> {
  const { stream, peer, tasks } = options;
  const offered = parseOffer(options.offer, 'recvonly');
  const chosen = offered.map((media) => ({ media, codec: publishedCodec(media) }));
  if (!chosen.some(({ codec }) => codec)) {
    throw new HttpError(
      400,
      `no codec of the offer can be published: it offers ${describeOffer(offered)}; the relay takes video H264 (packetization-mode 1), H265, VP8, VP9 or AV1, audio OPUS, PCMA or PCMU`,
    );
  }

  const codecs: { video: RTCRtpCodecParameters[]; audio: RTCRtpCodecParameters[] } = { video: [], audio: [] };
  for (const { media, codec } of chosen)
    if (codec && codecs[media.kind].length === 0) codecs[media.kind].push(codecParameters(codec, media.kind));
  for (const media of offered)
    if (codecs[media.kind].length === 0 && media.codecs[0]) codecs[media.kind].push(codecParameters(media.codecs[0], media.kind));

  const id = randomUUID();
  const { remote } = peer;
  const pc = new (werift().RTCPeerConnection)({ codecs, ...options.network.peerConfig() });
  let closed = false;
  let release = () => undefined as void;
  let untrack = () => undefined as void;
  let timer: NodeJS.Timeout | undefined;
  let endConnection: (error?: Error) => void = () => undefined;
  const connectionClosed = new Promise<Error | undefined>((resolve) => (endConnection = resolve));

  const session: WebrtcSession = {
    id,
    answer: '',
    isConnected: () => !closed && pc.connectionState === 'connected',
    async addRemoteCandidate(candidate, sdpMid) {
      if (closed || candidate.trim() === '') return;
      await pc.addIceCandidate({ candidate: candidate.replace(/^a=/, ''), sdpMid: sdpMid ?? pc.getTransceivers()[0]?.mid ?? '0' });
    },
    close(reason) {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      endConnection(reason === 'the publisher ended it' ? undefined : new Error(reason));
      void pc.close().catch(() => undefined);
      untrack();
      release();
      options.onClosed(session);
    },
  };

  try {
    await pc.setRemoteDescription({ type: 'offer', sdp: options.offer });
    await pc.setLocalDescription(await pc.createAnswer());
    await iceGathered(pc);
    const local = pc.localDescription?.sdp;
    if (!local) throw new Error('no answer was made');
    // The answer's audio/video sections, in order, are the producer's medias.
    const medias = parseSdp(local, 'recvonly');
    const transceivers = pc.getTransceivers().filter((t) => t.kind === 'audio' || t.kind === 'video');
    const publisher = new WebrtcProducer(medias, transceivers, { remote, userAgent: peer.userAgent }, connectionClosed, () =>
      session.close('the stream let the publisher go'),
    );
    const published = await options.network.publish(local, {
      onRemote: (address) => publisher.remoteAt(address),
      onGone: () => session.close('the publisher went silent'),
    });
    release = published.release;
    pc.connectionStateChange.subscribe((state) => state === 'connected' && clearTimeout(timer));
    onPeerGone(pc, (why) => session.close(why));
    stream.addPushed(`webrtc://${remote}/${options.streamName}`, publisher);
    untrack = tasks.add('producer', `webrtc publisher ${options.streamName} ${remote}`);
    timer = setTimeout(() => session.close('the publisher never connected'), CONNECT_TIMEOUT_MS);
    timer.unref();
    return { ...session, answer: published.sdp };
  } catch (error) {
    session.close('the offer could not be answered');
    throw new HttpError(400, `the offer could not be answered: ${(error as Error).message}`);
  }
}
