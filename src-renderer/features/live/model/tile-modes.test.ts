import { describe, expect, it } from 'vitest';
import type { PlayerMode } from '../player/player-types';
import { withTileMode } from './tile-modes';

describe('withTileMode', () => {
  it.each<[string, Record<string, PlayerMode>, string, PlayerMode | undefined, Record<string, PlayerMode>]>([
    ['forces a mode', {}, 'door', 'mjpeg', { door: 'mjpeg' }],
    ['changes a forced mode', { door: 'mjpeg', yard: 'hls' }, 'door', 'webrtc', { door: 'webrtc', yard: 'hls' }],
    ['automatic takes the stream out', { door: 'mjpeg', yard: 'hls' }, 'door', undefined, { yard: 'hls' }],
    ['automatic for a stream not forced changes nothing', { yard: 'hls' }, 'door', undefined, { yard: 'hls' }],
  ])('%s', (_case, modes, stream, mode, expected) => {
    const before = { ...modes };
    expect(withTileMode(modes, stream, mode)).toEqual(expected);
    expect(modes).toEqual(before);
  });
});
