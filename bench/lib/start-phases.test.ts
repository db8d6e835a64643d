import { describe, expect, it } from 'vitest';
import { median, medianPhases, tilePhases } from './start-phases';
import type { TileTimeline } from './tile-timeline';

const timeline = (over: Partial<TileTimeline> = {}): TileTimeline => ({
  consoleSocketOpenAt: 150,
  firstRenderAt: 120,
  calls: { 0: { name: 'app.info', sentAt: 151, answeredAt: 160 }, 3: { name: 'relay.listStreams', sentAt: 152, answeredAt: 170 } },
  peerCreatedAt: 180,
  mediaRequest: { kind: 'WHEP offer', at: 200 },
  firstFrameAt: 300,
  secondFrameAt: 340,
  width: 1280,
  ...over,
});
const page = {
  htmlAt: 20,
  resources: [
    { name: 'http://127.0.0.1:1/assets/index-AbC.css', responseEnd: 60 },
    { name: 'http://127.0.0.1:1/assets/index-AbC.js', responseEnd: 80 },
    { name: 'http://127.0.0.1:1/api/webrtc?src=cam', responseEnd: 230 },
  ],
};

describe('median', () => {
  it('takes the middle of an odd count and the upper middle of an even one', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

describe('tilePhases', () => {
  it('lists each step of opening the console in order, from the page and the probe', () => {
    expect(tilePhases(timeline(), page)).toEqual([
      ['page HTML in', 20],
      ['main bundle in', 80],
      ['first render', 120],
      ['contract socket open', 150],
      ['streams list asked', 152],
      ['streams list answered', 170],
      ['player chose WebRTC (peer made)', 180],
      ['player asks for media (WHEP offer)', 200],
      ['WHEP answer in', 230],
      ['first picture', 300],
      ['second, different picture', 340],
    ]);
  });

  it('has no WHEP answer for another mode and says null for a step that never happened', () => {
    const phases = tilePhases(
      timeline({ mediaRequest: { kind: 'MSE socket', at: 210 }, peerCreatedAt: null, secondFrameAt: null, calls: {} }),
      page,
    );
    expect(phases.map(([label]) => label)).not.toContain('WHEP answer in');
    expect(phases.map(([label]) => label)).not.toContain('player chose WebRTC (peer made)');
    expect(phases).toContainEqual(['streams list answered', null]);
    expect(phases).toContainEqual(['player asks for media (MSE socket)', 210]);
    expect(phases).toContainEqual(['second, different picture', null]);
  });
});

describe('medianPhases', () => {
  it('takes each step median over the rounds, leaving out rounds that lack it', () => {
    const rounds = [
      [['a', 10] as const, ['b', null] as const],
      [['a', 30] as const, ['b', 7] as const],
      [['a', 20] as const, ['b', null] as const],
    ];
    expect(medianPhases(rounds)).toEqual([
      ['a', 20],
      ['b', 7],
    ]);
    expect(medianPhases([])).toEqual([]);
  });
});
