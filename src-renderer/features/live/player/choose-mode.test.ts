import { describe, expect, it } from 'vitest';
import { chooseMode, type Capabilities, type ModeInput } from './choose-mode';

const CHROME: Capabilities = { webrtc: true, mse: true, mseH265: false, webrtcH265: false, nativeHls: false };
const SAFARI_IOS: Capabilities = { webrtc: true, mse: false, mseH265: false, webrtcH265: true, nativeHls: true };
const NO_WEBRTC: Capabilities = { ...CHROME, webrtc: false };
const OLD: Capabilities = { webrtc: false, mse: false, mseH265: false, webrtcH265: false, nativeHls: false };

const input = (over: Partial<ModeInput>): ModeInput => ({ capabilities: CHROME, videoCodecs: ['h264'], failed: [], ...over });

describe('chooseMode', () => {
  it.each<[string, Partial<ModeInput>, string | undefined]>([
    ['H.264 in Chrome: WebRTC first', {}, 'webrtc'],
    ['codecs not known yet: still WebRTC', { videoCodecs: [] }, 'webrtc'],
    ['WebRTC failed: MSE next', { failed: [{ mode: 'webrtc', reason: 'endpoint' }] }, 'mse'],
    [
      'WebRTC and MSE failed: HLS',
      {
        failed: [
          { mode: 'webrtc', reason: 'connection' },
          { mode: 'mse', reason: 'decode' },
        ],
      },
      'hls',
    ],
    [
      'all video modes failed: MJPEG',
      {
        failed: [
          { mode: 'webrtc', reason: 'timeout' },
          { mode: 'mse', reason: 'stalled' },
          { mode: 'hls', reason: 'endpoint' },
        ],
      },
      'mjpeg',
    ],
    ['no WebRTC in the browser: MSE first', { capabilities: NO_WEBRTC }, 'mse'],
    ['iOS without MSE, WebRTC failed: native HLS', { capabilities: SAFARI_IOS, failed: [{ mode: 'webrtc', reason: 'connection' }] }, 'hls'],
    ['an old browser: MJPEG', { capabilities: OLD }, 'mjpeg'],
    ['a JPEG camera: straight to MJPEG', { videoCodecs: ['jpeg'] }, 'mjpeg'],
    ['H.265 in Chrome without H.265 decode: MJPEG', { videoCodecs: ['h265'] }, 'mjpeg'],
    ['H.265 where MSE takes hvc1: MSE', { videoCodecs: ['h265'], capabilities: { ...CHROME, mseH265: true } }, 'mse'],
    ['H.265 in Safari: WebRTC', { videoCodecs: ['h265'], capabilities: SAFARI_IOS }, 'webrtc'],
    ['forced HLS', { forced: 'hls' }, 'hls'],
    ['forced MSE that failed: nothing', { forced: 'mse', failed: [{ mode: 'mse', reason: 'decode' }] }, undefined],
    ['forced WebRTC without WebRTC: nothing', { forced: 'webrtc', capabilities: NO_WEBRTC }, undefined],
  ])('%s', (_name, over, mode) => {
    expect(chooseMode(input(over)).mode).toBe(mode);
  });

  it('says why each earlier mode was skipped', () => {
    const decision = chooseMode(input({ videoCodecs: ['jpeg'] }));
    expect(decision).toEqual({
      mode: 'mjpeg',
      skipped: [
        { mode: 'webrtc', why: 'WebRTC does not carry JPEG video' },
        { mode: 'mse', why: 'MP4 in the browser does not carry JPEG video' },
        { mode: 'hls', why: 'HLS does not carry JPEG video' },
      ],
    });
    expect(chooseMode(input({ forced: 'webrtc', capabilities: OLD }))).toEqual({
      mode: undefined,
      why: 'webrtc: this browser has no WebRTC',
    });
  });
});
