import { describe, expect, it } from 'vitest';
import { mediasOfMimeType } from './remote-probe';

describe('the codecs a relay answers an MSE request with, as media lines', () => {
  it('names video and audio codecs as go2rtc media lines do', () => {
    expect(mediasOfMimeType('video/mp4; codecs="avc1.64001F,mp4a.40.2"')).toEqual([
      'video, recvonly, H264',
      'audio, recvonly, MPEG4-GENERIC',
    ]);
    expect(mediasOfMimeType('video/mp4; codecs="hvc1.1.6.L153.B0,opus"')).toEqual(['video, recvonly, H265', 'audio, recvonly, OPUS']);
    expect(mediasOfMimeType('video/mp4; codecs="flac,vp09.00"')).toEqual(['audio, recvonly, FLAC', 'unknown, recvonly, VP09.00']);
  });

  it('answers no media for a type without codecs', () => {
    expect(mediasOfMimeType('video/mp4')).toEqual([]);
    expect(mediasOfMimeType('video/mp4; codecs=""')).toEqual([]);
  });
});
