import { describe, expect, it } from 'vitest';
import { parseSdp } from '../rtsp/sdp';
import { answerCodec, describeOffer, viewerRequests } from './offer-codecs';

/** The medias of an offer as Chromium writes it (trimmed to what matters here). */
const CHROMIUM_OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 127 98',
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:102 H264/90000',
  'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f',
  'a=rtpmap:103 H264/90000',
  'a=fmtp:103 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
  'a=rtpmap:127 H264/90000',
  'a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640032',
  'a=rtpmap:98 VP9/90000',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 0 8',
  'a=rtpmap:111 opus/48000/2',
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:8 PCMA/8000',
  '',
].join('\r\n');

describe('what a viewer offer lets the relay send', () => {
  const offer = parseSdp(CHROMIUM_OFFER, 'sendonly');

  it('asks the stream for the codecs both know, the relay preference first', () => {
    expect(viewerRequests(offer)).toEqual([
      { kind: 'video', codecs: ['H264', 'VP8', 'VP9'] },
      { kind: 'audio', codecs: ['OPUS', 'PCMA', 'PCMU'] },
    ]);
    // H.264 only as packetization-mode 1: camera RTP (FU-A, STAP-A) needs it; VP8 and the rest stay (WHIP publishers).
    expect(viewerRequests(parseSdp(CHROMIUM_OFFER.replace(/packetization-mode=1/g, 'packetization-mode=0'), 'sendonly'))).toEqual([
      { kind: 'video', codecs: ['VP8', 'VP9'] },
      { kind: 'audio', codecs: ['OPUS', 'PCMA', 'PCMU'] },
    ]);
  });

  it('takes an H.264 entry offered with no fmtp line as packetization-mode 1, as go2rtc does', () => {
    const minimal = parseSdp(
      ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=rtpmap:96 H264/90000', ''].join('\r\n'),
      'sendonly',
    );
    expect(viewerRequests(minimal)).toEqual([{ kind: 'video', codecs: ['H264'] }]);
    const source = { name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'packetization-mode=1;profile-level-id=640028' };
    expect(answerCodec(minimal[0]!, source)?.payloadType).toBe(96);
  });

  it('answers H.264 with packetization-mode 1 and the source profile when offered, else the first usable entry', () => {
    const high = { name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'packetization-mode=1;profile-level-id=640028' };
    expect(answerCodec(offer[0]!, high)?.payloadType).toBe(127);
    const main = { name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'packetization-mode=1;profile-level-id=4d001f' };
    expect(answerCodec(offer[0]!, main)?.payloadType).toBe(103);
    expect(answerCodec(offer[1]!, { name: 'PCMA', clockRate: 8000, payloadType: 8 })?.payloadType).toBe(8);
    expect(answerCodec(offer[1]!, { name: 'MPEG4-GENERIC', clockRate: 48000, payloadType: 97 })).toBeUndefined();
  });

  it('says what was offered, without the repair formats', () => {
    expect(describeOffer(offer)).toBe('video VP8/H264/VP9, audio OPUS/PCMU/PCMA');
  });
});
