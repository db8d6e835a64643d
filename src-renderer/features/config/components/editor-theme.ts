import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { EDITOR_PALETTES, type EditorPalette } from '../model/editor-palette';

// The lint underline and gutter marks are SVG images with their colour inside, so each theme
// draws its own (data: images are allowed by the console's CSP).
const svgUrl = (body: string, attributes: string) =>
  `url('data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" ${attributes}>${body}</svg>`)}')`;
const wavy = (colour: string) =>
  svgUrl(`<path d="m0 2.5 l2 -1.5 l1 0 l2 1.5 l1 0" stroke="${colour}" fill="none" stroke-width="1"/>`, 'width="6" height="3"');
const marker = (shape: string) => svgUrl(shape, 'viewBox="0 0 40 40"');

function editorChrome(p: EditorPalette): Extension {
  return EditorView.theme(
    {
      '&': { color: p.foreground, backgroundColor: p.background },
      '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)' },
      '.cm-content': { caretColor: p.cursor },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: p.cursor, borderLeftWidth: '2px' },
      '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
        backgroundColor: p.selection,
      },
      '.cm-activeLine': { backgroundColor: p.activeLine },
      '.cm-gutters': { backgroundColor: p.gutterBackground, color: p.gutterForeground, borderRight: `1px solid ${p.tooltipBorder}` },
      '.cm-activeLineGutter': { backgroundColor: p.activeLineGutter, color: p.foreground },
      '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': { backgroundColor: p.matchingBracket, color: 'inherit' },
      '.cm-selectionMatch': { backgroundColor: p.matchingBracket },
      '.cm-searchMatch': { backgroundColor: p.searchMatch, outline: `1px solid ${p.lint.warning}` },
      '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: p.selection },
      '.cm-foldPlaceholder': { backgroundColor: p.tooltipBackground, color: p.tooltipForeground, border: `1px solid ${p.tooltipBorder}` },
      '.cm-tooltip': { backgroundColor: p.tooltipBackground, color: p.tooltipForeground, border: `1px solid ${p.tooltipBorder}` },
      '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: p.completionSelected, color: p.tooltipForeground },
      '.cm-completionMatchedText': { textDecoration: 'underline', fontWeight: 600 },
      '.cm-panels': { backgroundColor: p.tooltipBackground, color: p.tooltipForeground },
      '.cm-panels.cm-panels-top': { borderBottom: `1px solid ${p.tooltipBorder}` },
      '.cm-panels.cm-panels-bottom': { borderTop: `1px solid ${p.tooltipBorder}` },
      '.cm-textfield': { backgroundColor: p.background, color: p.foreground, border: `1px solid ${p.tooltipBorder}` },
      '.cm-button': {
        backgroundImage: 'none',
        backgroundColor: p.gutterBackground,
        color: p.foreground,
        border: `1px solid ${p.tooltipBorder}`,
      },
      // Problems: the underline, the bar beside the message, the gutter mark and the panel's list.
      '.cm-lintRange-error': { backgroundImage: wavy(p.lint.error) },
      '.cm-lintRange-warning': { backgroundImage: wavy(p.lint.warning) },
      '.cm-lintRange-info, .cm-lintRange-hint': { backgroundImage: wavy(p.lint.info) },
      '.cm-lintRange-active': { backgroundColor: p.searchMatch },
      '.cm-diagnostic-error': { borderLeftColor: p.lint.error },
      '.cm-diagnostic-warning': { borderLeftColor: p.lint.warning },
      '.cm-diagnostic-info, .cm-diagnostic-hint': { borderLeftColor: p.lint.info },
      '.cm-lint-marker-error': { content: marker(`<circle cx="20" cy="20" r="14" fill="${p.lint.error}"/>`) },
      '.cm-lint-marker-warning': { content: marker(`<path fill="${p.lint.warning}" d="M20 5L37 35L3 35Z"/>`) },
      '.cm-lint-marker-info': { content: marker(`<path fill="${p.lint.info}" d="M6 6L34 6L34 34L6 34Z"/>`) },
      '.cm-panel.cm-panel-lint ul [aria-selected], .cm-panel.cm-panel-lint ul:focus [aria-selected]': {
        backgroundColor: p.completionSelected,
        color: p.tooltipForeground,
      },
      // The diff before saving: added and removed lines, and the changed characters within them.
      '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: p.merge.insertedLine },
      '.cm-deletedChunk': { backgroundColor: p.merge.deletedLine },
      '&.cm-merge-b .cm-changedText': { background: p.merge.insertedText },
      '.cm-deletedChunk .cm-deletedText, &.cm-merge-b .cm-deletedText': { background: p.merge.deletedText },
      '&.cm-merge-b .cm-changedLineGutter': { background: p.tokens.string },
      '&.cm-merge-b .cm-deletedLineGutter': { background: p.lint.error },
      // The bar over folded unchanged lines; its default mark (⦚) is missing from common monospace fonts.
      '.cm-collapsedLines': { color: p.tooltipForeground, background: p.gutterBackground },
      '.cm-collapsedLines:before, .cm-collapsedLines:after': { content: '"↕"' },
      // Plain values by what YAML reads them as (yaml-scalars.ts marks them).
      '.cm-yaml-string': { color: p.tokens.string },
      '.cm-yaml-number': { color: p.tokens.number },
      '.cm-yaml-boolean, .cm-yaml-null': { color: p.tokens.boolean },
    },
    { dark: p.dark },
  );
}

function highlightStyle(p: EditorPalette): HighlightStyle {
  return HighlightStyle.define(
    [
      { tag: [t.propertyName, t.definition(t.propertyName)], color: p.tokens.key },
      { tag: [t.string, t.special(t.string), t.attributeValue], color: p.tokens.string },
      { tag: [t.number, t.integer, t.float], color: p.tokens.number },
      { tag: [t.bool, t.null, t.atom], color: p.tokens.boolean },
      { tag: [t.comment, t.lineComment, t.blockComment], color: p.tokens.comment, fontStyle: 'italic' },
      { tag: [t.meta, t.keyword], color: p.tokens.meta },
      { tag: t.labelName, color: p.tokens.label },
      { tag: t.typeName, color: p.tokens.tag },
      { tag: [t.separator, t.punctuation, t.squareBracket, t.brace], color: p.tokens.punctuation },
      { tag: t.invalid, color: p.lint.error },
    ],
    { themeType: p.dark ? 'dark' : 'light' },
  );
}

const themeOf = (p: EditorPalette): Extension => [editorChrome(p), syntaxHighlighting(highlightStyle(p))];

/** The editor's look in the console's light and dark themes: made once, swapped through a Compartment. */
export const EDITOR_THEMES: Readonly<Record<'light' | 'dark', Extension>> = {
  light: themeOf(EDITOR_PALETTES.light),
  dark: themeOf(EDITOR_PALETTES.dark),
};
