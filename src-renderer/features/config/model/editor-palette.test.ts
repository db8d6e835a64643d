import { describe, expect, it } from 'vitest';
import { contrastRatio } from '@renderer/ui/color/contrast';
import { EDITOR_PALETTES } from './editor-palette';

const AA_TEXT = 4.5;
const AA_NON_TEXT = 3;

// Every surface a token can sit on: the page, the cursor's line, the selection, and in the diff
// the added and removed lines and characters.
const surfaces = (p: (typeof EDITOR_PALETTES)['light']) => ({
  background: p.background,
  'active line': p.activeLine,
  selection: p.selection,
  'matching bracket': p.matchingBracket,
  'search match': p.searchMatch,
  'inserted line': p.merge.insertedLine,
  'deleted line': p.merge.deletedLine,
  'inserted text': p.merge.insertedText,
  'deleted text': p.merge.deletedText,
});

const cases = Object.entries(EDITOR_PALETTES).flatMap(([scheme, palette]) =>
  Object.entries({ text: palette.foreground, ...palette.tokens }).flatMap(([token, colour]) =>
    Object.entries(surfaces(palette)).map(([surface, background]) => [scheme, token, surface, colour, background] as const),
  ),
);

describe('config editor colours', () => {
  it.each(cases)('%s: %s on the %s reaches AA', (_scheme, _token, _surface, colour, background) => {
    expect(contrastRatio(colour, background)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(Object.entries(EDITOR_PALETTES))('%s: line numbers, tooltips and problem messages reach AA', (_scheme, p) => {
    expect(contrastRatio(p.gutterForeground, p.gutterBackground)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(p.gutterForeground, p.activeLineGutter)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(p.tooltipForeground, p.tooltipBackground)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(p.tooltipForeground, p.completionSelected)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(Object.entries(EDITOR_PALETTES))('%s: problem underlines and the cursor stand out (AA for non-text, 3:1)', (_scheme, p) => {
    for (const colour of [p.lint.error, p.lint.warning, p.lint.info, p.cursor]) {
      expect(contrastRatio(colour, p.background), colour).toBeGreaterThanOrEqual(AA_NON_TEXT);
      expect(contrastRatio(colour, p.activeLine), colour).toBeGreaterThanOrEqual(AA_NON_TEXT);
      expect(contrastRatio(colour, p.tooltipBackground), colour).toBeGreaterThanOrEqual(AA_NON_TEXT);
    }
  });

  it('tells keys from values in both themes (the issue: dark blue keys on dark grey)', () => {
    for (const p of Object.values(EDITOR_PALETTES)) expect(p.tokens.key).not.toBe(p.tokens.string);
    expect(EDITOR_PALETTES.dark.dark).toBe(true);
    expect(EDITOR_PALETTES.light.dark).toBe(false);
  });
});
