import { describe, expect, it } from 'vitest';
import { colorSchemeFromPage, fromMantineScheme, isColorSchemePreference, toMantineScheme } from './color-scheme';
import { createColorSchemeManager } from './color-scheme-manager';

describe('colour scheme preference', () => {
  it.each([
    ['system', 'auto'],
    ['light', 'light'],
    ['dark', 'dark'],
  ] as const)('%s is Mantine %s and back', (preference, mantine) => {
    expect(toMantineScheme(preference)).toBe(mantine);
    expect(fromMantineScheme(mantine)).toBe(preference);
  });

  it.each([
    ['dark', 'dark'],
    ['light', 'light'],
    ['system', 'system'],
    ['', 'system'],
    [null, 'system'],
    [undefined, 'system'],
    ['auto', 'system'],
    ['Dark', 'system'],
  ] as const)('the page saying %j starts in %s', (content, expected) => {
    expect(colorSchemeFromPage(content)).toBe(expected);
  });

  it.each([
    ['system', true],
    ['dark', true],
    ['auto', false],
    [3, false],
  ] as const)('%j is a preference: %s', (value, expected) => {
    expect(isColorSchemePreference(value)).toBe(expected);
  });
});

describe('createColorSchemeManager', () => {
  it('starts with what the page said, keeps what Mantine sets, and clears back to the start', () => {
    const manager = createColorSchemeManager('dark');
    expect(manager.get('light')).toBe('dark');
    manager.set('auto');
    expect(manager.get('light')).toBe('auto');
    manager.clear();
    expect(manager.get('light')).toBe('dark');
  });

  it('keeps one value per manager: two consoles in one test do not share it', () => {
    const a = createColorSchemeManager('light');
    const b = createColorSchemeManager('light');
    a.set('dark');
    expect(b.get('auto')).toBe('light');
  });
});
