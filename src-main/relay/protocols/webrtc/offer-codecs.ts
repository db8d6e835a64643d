import type { Codec, Media, MediaKind } from '../../core/media';
import type { MediaRequest } from '../../core/negotiation';
import { spsFromFmtp } from '../../media/codecs/h264/sps';

/** What the relay passes through to browsers, in the order it prefers them (VP8, VP9 and AV1 come from WHIP publishers). */
const PASSTHROUGH: Record<MediaKind, readonly string[]> = {
  video: ['H264', 'H265', 'VP8', 'VP9', 'AV1'],
  audio: ['OPUS', 'PCMA', 'PCMU'],
};

/**
 * Browsers' H.264 entries that the relay can feed: RTP as cameras send it (FU-A, STAP-A) needs
 * packetization-mode 1. An entry with no fmtp at all (minimal WHEP clients and scripts) is taken
 * as mode 1, as go2rtc does; one that says mode 0 is not.
 */
const usable = (codec: Codec): boolean => codec.name !== 'H264' || !codec.fmtp || /packetization-mode=1/.test(codec.fmtp);

/**
 * What a viewer's offer lets the relay send, one request per offered video or audio media (the
 * codecs both sides know, the relay's preference first). An offer whose medias share no codec
 * with what the relay passes through gets no request for them.
 */
export function viewerRequests(offer: readonly Media[]): MediaRequest[] {
  const requests: MediaRequest[] = [];
  for (const media of offer) {
    const codecs = PASSTHROUGH[media.kind].filter((name) => media.codecs.some((c) => c.name === name && usable(c)));
    if (codecs.length > 0) requests.push({ kind: media.kind, codecs });
  }
  return requests;
}

/** `profile_idc` and `profile-iop` of an H.264 profile-level-id (the level is left to the decoder). */
const profileOf = (profileLevelId: string | undefined) => profileLevelId?.slice(0, 4).toLowerCase();

/** The profile-level-id of the source's H.264: from its fmtp, else from the SPS it carries there. */
function sourceProfile(source: Codec): string | undefined {
  const written = /profile-level-id=([0-9a-f]{6})/i.exec(source.fmtp ?? '')?.[1];
  if (written) return written.toLowerCase();
  const sps = spsFromFmtp(source.fmtp);
  return sps && sps.length >= 4 ? Buffer.from(sps.subarray(1, 4)).toString('hex') : undefined;
}

/**
 * The entry of the viewer's offer the answer takes for the source's codec: same name, and for
 * H.264 packetization-mode 1 with the source's profile where the browser lists it (browsers
 * decode any profile they list; the first usable entry otherwise).
 */
export function answerCodec(offered: Media, source: Codec): Codec | undefined {
  const candidates = offered.codecs.filter((c) => c.name === source.name && usable(c));
  if (source.name !== 'H264') return candidates[0];
  const profile = profileOf(sourceProfile(source));
  return (
    candidates.find((c) => profile !== undefined && profileOf(/profile-level-id=([0-9a-f]{6})/i.exec(c.fmtp ?? '')?.[1]) === profile) ??
    candidates[0]
  );
}

/** What an offer has, for an error that says which codecs were offered: `video VP8/VP9, audio OPUS`. */
export function describeOffer(offer: readonly Media[]): string {
  return offer
    .map(
      (m) =>
        `${m.kind} ${[...new Set(m.codecs.map((c) => c.name))].filter((n) => !['RTX', 'RED', 'ULPFEC', 'FLEXFEC-03', 'CN', 'TELEPHONE-EVENT'].includes(n)).join('/')}`,
    )
    .join(', ');
}
