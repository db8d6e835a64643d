import { describe, expect, it } from 'vitest';
import { codecStats } from './codec-stats';

describe('codec stats', () => {
  it('shows video size, profile and level from the SDP, and audio rate and channels', () => {
    const h264 = codecStats(
      { name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'sprop-parameter-sets=Z2QAH6zZQFAFuwEQAAADABAAAAMDIPGDGWA=,aOvjyyLA' },
      'video',
    );
    expect(h264).toEqual({ codec_name: 'h264', codec_type: 'video', profile: 'High', level: '3.1', width: 1280, height: 720 });
    const sps265 = Buffer.from('42010101600000030090000003000003003ca00a080f165959a4932bc05a020000030002000003003210', 'hex').toString(
      'base64',
    );
    expect(codecStats({ name: 'H265', clockRate: 90000, payloadType: 96, fmtp: `sprop-sps=${sps265}` }, 'video')).toMatchObject({
      codec_name: 'h265',
      width: 320,
      height: 240,
    });
    expect(codecStats({ name: 'MPEG4-GENERIC', clockRate: 48000, channels: 2, payloadType: 97 }, 'audio')).toEqual({
      codec_name: 'aac',
      codec_type: 'audio',
      sample_rate: 48000,
      channels: 2,
    });
    expect(codecStats({ name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'sprop-parameter-sets=Z2Q=' }, 'video')).toEqual({
      codec_name: 'h264',
      codec_type: 'video',
    });
  });
});
