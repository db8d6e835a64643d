import { describe, expect, it } from 'vitest';
import { ariaKeys, isMacPlatform, keyCaps, keysOn } from './shortcut';

describe('keyCaps', () => {
  it.each([
    ['Mod+S', false, ['Ctrl', 'S']],
    ['Mod+S', true, ['⌘', 'S']],
    ['Alt+←', false, ['Alt', '←']],
    ['Alt+←', true, ['⌥', '←']],
    ['Mod+Shift+Z', true, ['⌘', '⇧', 'Z']],
    ['Ctrl+Space', false, ['Ctrl', 'Space']],
    ['Ctrl+Space', true, ['⌃', 'Space']],
    ['?', false, ['?']],
    ['+', false, ['+']],
    ['F8', true, ['F8']],
  ] as const)('%s on a Mac %s: %j', (combo, mac, caps) => {
    expect(keyCaps(combo, mac)).toEqual(caps);
  });
});

describe('ariaKeys', () => {
  it.each([
    ['Mod+S', false, 'Control+S'],
    ['Mod+S', true, 'Meta+S'],
    ['Alt+↑', false, 'Alt+ArrowUp'],
    ['Esc', false, 'Escape'],
    ['?', true, '?'],
  ] as const)('%s on a Mac %s: %s', (combo, mac, aria) => {
    expect(ariaKeys(combo, mac)).toBe(aria);
  });
});

describe('platform', () => {
  it.each([
    ['MacIntel', true],
    ['iPad', true],
    ['Win32', false],
    ['Linux x86_64', false],
    ['', false],
  ] as const)('%j is a Mac: %s', (platform, mac) => {
    expect(isMacPlatform(platform)).toBe(mac);
  });

  it('uses the Mac binding where one is declared', () => {
    const redo = { keys: ['Mod+Y'], macKeys: ['Mod+Shift+Z'], description: 'Redo' };
    expect(keysOn(redo, false)).toEqual(['Mod+Y']);
    expect(keysOn(redo, true)).toEqual(['Mod+Shift+Z']);
    expect(keysOn({ keys: ['?'], description: 'Help' }, true)).toEqual(['?']);
  });
});
