import { describe, expect, it } from 'vitest';
import { contrastRatio, parseColor } from './contrast';

describe('parseColor', () => {
  it.each([
    ['#fff', { r: 255, g: 255, b: 255, a: 1 }],
    ['#242424', { r: 36, g: 36, b: 36, a: 1 }],
    ['#ff000080', { r: 255, g: 0, b: 0, a: 128 / 255 }],
    ['rgb(5, 80, 174)', { r: 5, g: 80, b: 174, a: 1 }],
    ['rgba(0, 0, 0, 0.5)', { r: 0, g: 0, b: 0, a: 0.5 }],
    ['rgb(0 0 0 / 50%)', { r: 0, g: 0, b: 0, a: 0.5 }],
    ['  #ABCDEF ', { r: 171, g: 205, b: 239, a: 1 }],
    ['blue', undefined],
    ['#12', undefined],
    ['', undefined],
  ])('%j', (text, expected) => {
    expect(parseColor(text)).toEqual(expected);
  });
});

describe('contrastRatio', () => {
  it.each([
    ['black on white', '#000', '#fff', 21],
    ['white on black', '#fff', '#000', 21],
    ['the same colour', '#777', '#777', 1],
    ['WCAG grey #767676 on white, just AA', '#767676', '#ffffff', 4.54],
    ['rgb() as computed styles give it', 'rgb(255, 255, 255)', 'rgb(36, 36, 36)', 15.5],
    ['half-transparent black on white is mid grey', 'rgba(0, 0, 0, 0.5)', '#fff', 3.95],
  ])('%s', (_what, fg, bg, ratio) => {
    expect(contrastRatio(fg, bg)).toBeCloseTo(ratio, 1);
  });

  it('names a colour it cannot read', () => {
    expect(() => contrastRatio('papayawhip', '#fff')).toThrow('not a colour: papayawhip');
  });
});
