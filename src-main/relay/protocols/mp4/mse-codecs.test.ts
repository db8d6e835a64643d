import { describe, expect, it } from 'vitest';
import { clientAudioFromCodecs, mseRequests } from './mse-codecs';

describe('the codecs a MediaSource takes', () => {
  it('asks for what the browser lists, G.711 and PCM through FLAC only when it takes FLAC', () => {
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

  it('takes G.711 as it is from a source only for a browser that names alaw or ulaw', () => {
    expect(mseRequests('avc1.640029,alaw')).toEqual([
      { kind: 'video', codecs: ['H264'] },
      { kind: 'audio', codecs: ['PCMA'] },
    ]);
    expect(mseRequests('ULAW')).toEqual([{ kind: 'audio', codecs: ['PCMU'] }]);
  });

  it('reads the audio forms the browser decodes from its list', () => {
    expect(clientAudioFromCodecs('avc1.640029, fLaC ,mp4a.40.2')).toEqual({ flac: true, alaw: false, ulaw: false });
    expect(clientAudioFromCodecs('alaw,ulaw')).toEqual({ flac: false, alaw: true, ulaw: true });
    expect(clientAudioFromCodecs('')).toEqual({ flac: false, alaw: false, ulaw: false });
  });
});
