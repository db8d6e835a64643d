import { describe, expect, it } from 'vitest';
import { formatBitrate, formatResolution } from './format-caption';
import { gridColumns } from './grid-layout';
import { shortcutFor, stepSelection } from './shortcuts';
import { moveTile, orderTiles } from './tile-order';

describe('orderTiles', () => {
  it.each<[string[], string[], string[]]>([
    [['b', 'a', 'c'], [], ['a', 'b', 'c']],
    [
      ['a', 'b', 'c'],
      ['c', 'a'],
      ['c', 'a', 'b'],
    ],
    [
      ['a', 'b'],
      ['gone', 'b', 'b'],
      ['b', 'a'],
    ],
    [[], ['x'], []],
  ])('%j with saved %j → %j', (streams, saved, order) => {
    expect(orderTiles(streams, saved)).toEqual(order);
  });
});

describe('moveTile', () => {
  it.each<[string, string, string[]]>([
    ['a', 'c', ['b', 'c', 'a', 'd']],
    ['d', 'a', ['d', 'a', 'b', 'c']],
    ['b', 'b', ['a', 'b', 'c', 'd']],
    ['x', 'a', ['a', 'b', 'c', 'd']],
  ])('%s onto %s', (from, to, order) => {
    expect(moveTile(['a', 'b', 'c', 'd'], from, to)).toEqual(order);
  });
});

describe('gridColumns', () => {
  it('gives fixed columns for square layouts and fills for auto', () => {
    expect(gridColumns('1')).toBe('minmax(0, 1fr)');
    expect(gridColumns('3x3')).toBe('repeat(3, minmax(0, 1fr))');
    expect(gridColumns('auto')).toContain('auto-fill');
  });
});

describe('shortcuts', () => {
  const key = (k: string, over: Partial<Parameters<typeof shortcutFor>[0]> = {}) =>
    shortcutFor({ key: k, ctrlKey: false, metaKey: false, altKey: false, targetIsEditable: false, ...over });
  it('maps keys to actions except in fields or with modifiers', () => {
    // `?` is the shell's (app/shortcuts): it opens the shortcuts dialog in every section.
    expect([key('ArrowRight'), key('n'), key('p'), key('f'), key('s'), key('m'), key('?'), key('x')]).toEqual([
      'next',
      'next',
      'previous',
      'fullscreen',
      'snapshot',
      'mute',
      undefined,
      undefined,
    ]);
    expect(key('s', { ctrlKey: true })).toBeUndefined();
    expect(key('f', { targetIsEditable: true })).toBeUndefined();
  });
  it('wraps the selection', () => {
    expect(stepSelection(2, 3, 'next')).toBe(0);
    expect(stepSelection(0, 3, 'previous')).toBe(2);
    expect(stepSelection(0, 0, 'next')).toBe(0);
  });
});

describe('caption', () => {
  it('formats size and bitrate', () => {
    expect(formatResolution(1280, 720)).toBe('1280×720');
    expect(formatResolution(0, 0)).toBeUndefined();
    expect(formatBitrate(2_140_000)).toBe('2.1 Mbit/s');
    expect(formatBitrate(640_400)).toBe('640 kbit/s');
    expect(formatBitrate(undefined)).toBeUndefined();
  });
});
