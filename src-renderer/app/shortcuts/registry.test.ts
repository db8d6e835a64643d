import { describe, expect, it } from 'vitest';
import { keysOn } from '../../ui/keyboard/shortcut';
import { SECTION_IDS } from '../sections';
import { GLOBAL_SHORTCUTS, opensShortcuts, SECTION_SHORTCUTS, shortcutsIn, type KeyPress } from './registry';

const press = (over: Partial<KeyPress> = {}): KeyPress => ({
  key: '?',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  typing: false,
  dialogOpen: false,
  ...over,
});

describe('opensShortcuts', () => {
  it.each([
    ['? on the page', press(), true],
    ['? typed into a field', press({ typing: true }), false],
    ['? inside an open dialog', press({ dialogOpen: true }), false],
    ['Ctrl+?', press({ ctrlKey: true }), false],
    ['Cmd+?', press({ metaKey: true }), false],
    ['Alt+?', press({ altKey: true }), false],
    ['/ (the same key without Shift)', press({ key: '/' }), false],
    ['h', press({ key: 'h' }), false],
  ])('%s: %s', (_what, keyPress, expected) => {
    expect(opensShortcuts(keyPress)).toBe(expected);
  });
});

describe('the shortcuts registry', () => {
  it.each(SECTION_IDS.map((id) => [id]))('%s lists its own keys and the global ones', (id) => {
    const listed = shortcutsIn(id);
    expect(listed.global).toBe(GLOBAL_SHORTCUTS);
    expect(listed.section).toBe(SECTION_SHORTCUTS[id]);
    expect(listed.sectionTitle).not.toBe('');
  });

  it.each([
    ['live', 'Next tile'],
    ['live', 'Download a snapshot of the selected tile'],
    ['storage', 'Up one folder'],
    ['storage', 'Select every loaded row'],
    ['config', 'Save the file (checks it first)'],
    ['directory', 'Save the assignment policy'],
    ['recordings', 'Play from the cursor'],
  ] as const)('%s lists "%s"', (section, description) => {
    expect(SECTION_SHORTCUTS[section].flatMap((g) => g.shortcuts.map((s) => s.description))).toContain(description);
  });

  it.each([['streams'], ['calendar'], ['settings'], ['about']] as const)('%s has no keys of its own (none is handled there)', (section) => {
    expect(SECTION_SHORTCUTS[section]).toEqual([]);
  });

  it('never lists one key twice for different things within a group, nor a group without keys', () => {
    for (const group of [GLOBAL_SHORTCUTS, ...Object.values(SECTION_SHORTCUTS).flat()]) {
      expect(group.shortcuts.length, group.title).toBeGreaterThan(0);
      for (const mac of [false, true]) {
        const keys = group.shortcuts.flatMap((s) => keysOn(s, mac));
        expect(new Set(keys).size, `${group.title} (mac: ${mac})`).toBe(keys.length);
      }
    }
  });

  it("no section takes `?` for itself: it is the shell's in every section", () => {
    for (const [section, groups] of Object.entries(SECTION_SHORTCUTS)) {
      expect(
        groups.flatMap((g) => g.shortcuts.flatMap((s) => [...s.keys, ...(s.macKeys ?? [])])),
        section,
      ).not.toContain('?');
    }
  });
});
