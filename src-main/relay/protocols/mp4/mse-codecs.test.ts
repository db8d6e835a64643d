import { describe, expect, it } from 'vitest';
import { mseRequests } from './mse-codecs';

describe('the codecs a MediaSource takes', () => {
  it('asks for what the browser lists, G.711 through FLAC only when it takes FLAC', () => {
    expect(mseRequests('avc1.640029,avc1.64002A,hvc1.1.6.L153.B0,mp4a.40.2,mp4a.40.5,flac,opus')).toEqual([
      { kind: 'video', codecs: ['H264', 'H265'] },
      { kind: 'audio', codecs: ['MPEG4-GENERIC', 'OPUS', 'PCMA', 'PCMU', 'L16'] },
    ]);
    expect(mseRequests('avc1.42E01E,mp4a.40.2')).toEqual([
      { kind: 'video', codecs: ['H264'] },
      { kind: 'audio', codecs: ['MPEG4-GENERIC'] },
    ]);
    expect(mseRequests('')).toEqual([]);
  });
});
