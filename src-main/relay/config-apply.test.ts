import { describe, expect, it } from 'vitest';
import { configChanges } from './config-apply';

describe('config changes on apply', () => {
  it.each([
    {
      name: 'nothing changed',
      current: { streams: { a: 'rtsp://a' }, api: { listen: ':1984' } },
      next: { streams: { a: 'rtsp://a' }, api: { listen: ':1984' } },
      expected: { streams: { added: [], changed: [], removed: [] }, restartNeeded: [] },
    },
    {
      name: 'streams added, changed and removed take effect now',
      current: { streams: { a: 'rtsp://a', b: 'rtsp://b', c: ['rtsp://c1', 'rtsp://c2'] } },
      next: { streams: { a: 'rtsp://a', c: ['rtsp://c1'], d: 'rtsp://d' } },
      expected: { streams: { added: ['d'], changed: ['c'], removed: ['b'] }, restartNeeded: [] },
    },
    {
      name: 'a source written as a one-item list is the same stream',
      current: { streams: { a: 'rtsp://a' } },
      next: { streams: { a: ['rtsp://a'] } },
      expected: { streams: { added: [], changed: [], removed: [] }, restartNeeded: [] },
    },
    {
      name: 'the streams section removed',
      current: { streams: { a: 'rtsp://a' } },
      next: {},
      expected: { streams: { added: [], changed: [], removed: ['a'] }, restartNeeded: [] },
    },
    {
      name: 'other sections wait for a restart; live ones do not',
      current: { api: { listen: ':1984' }, rtsp: { listen: ':8554' }, preload: { a: '' }, log: { level: 'info' } },
      next: {
        api: { listen: ':1985' },
        rtsp: { listen: ':8554' },
        preload: { b: '' },
        webtorrent: { shares: {} },
        ffmpeg: { bin: 'ffmpeg' },
      },
      expected: { streams: { added: [], changed: [], removed: [] }, restartNeeded: ['api', 'ffmpeg', 'log'] },
    },
  ])('$name', ({ current, next, expected }) => {
    expect(configChanges(current, next)).toEqual(expected);
  });
});
