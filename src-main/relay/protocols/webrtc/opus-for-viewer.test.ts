import { describe, expect, it } from 'vitest';
import type { Media } from '../../core/media';
import type { SourceRunner } from '../../core/source-runner';
import type { Track } from '../../core/track';
import { opusNeed } from './opus-for-viewer';

const media = (kind: 'video' | 'audio', name: string, direction: Media['direction'] = 'recvonly'): Media => ({
  kind,
  direction,
  codecs: [{ name, clockRate: kind === 'video' ? 90000 : 48000, payloadType: 96 }],
});
const camera = {
  pushed: false,
  url: 'rtsp://cam/live',
  medias: [media('video', 'H264'), media('audio', 'MPEG4-GENERIC')],
  tracks: [{} as Track, {} as Track],
};
const transcoder = { pushed: true, url: 'ffmpeg:door#audio=opus', medias: [media('audio', 'OPUS')], tracks: [{} as Track] };
const streamOf = (...runners: Array<typeof camera>) => ({ runnerStates: () => runners as unknown as SourceRunner[] });
const chrome = [
  media('video', 'H264', 'sendonly'),
  { ...media('audio', 'OPUS', 'sendonly'), codecs: [media('audio', 'OPUS').codecs[0]!, media('audio', 'PCMA').codecs[0]!] },
];
const viewer = (...tracks: Array<{ kind: 'video' | 'audio'; track: Track }>) => ({ tracks: tracks as never });

describe('opusNeed', () => {
  it('asks for the transcoder when the viewer wants audio, takes Opus and got none of the stream audio', () => {
    expect(opusNeed(chrome, viewer({ kind: 'video', track: camera.tracks[0]! }), streamOf(camera), 'door')).toEqual({
      from: 'MPEG4-GENERIC',
      reattach: true,
    });
  });

  it("holds the transcoder without attaching again when the viewer was matched to another viewer's", () => {
    const tracks = viewer({ kind: 'video', track: camera.tracks[0]! }, { kind: 'audio', track: transcoder.tracks[0]! });
    expect(opusNeed(chrome, tracks, streamOf(transcoder, camera), 'door')).toEqual({ from: 'MPEG4-GENERIC', reattach: false });
  });

  it('does nothing for viewers without Opus or audio, streams without audio, or audio that matched', () => {
    const videoOnly = [chrome[0]!];
    expect(opusNeed(videoOnly, viewer(), streamOf(camera), 'door')).toBeUndefined();
    expect(
      opusNeed(chrome, viewer(), streamOf({ ...camera, medias: [camera.medias[0]!], tracks: [camera.tracks[0]!] }), 'door'),
    ).toBeUndefined();
    // A camera's two-way audio input is not audio to watch.
    expect(
      opusNeed(chrome, viewer(), streamOf({ ...camera, medias: [camera.medias[0]!, media('audio', 'PCMA', 'sendonly')] }), 'door'),
    ).toBeUndefined();
    const pcma = { ...camera, medias: [camera.medias[0]!, media('audio', 'PCMA')] };
    expect(opusNeed(chrome, viewer({ kind: 'audio', track: pcma.tracks[1]! }), streamOf(pcma), 'door')).toBeUndefined();
  });
});
