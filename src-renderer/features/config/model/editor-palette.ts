/**
 * The config editor's colours in the console's light and dark themes, as plain data so their
 * contrast is checked by a unit test (WCAG AA: 4.5 for text on every surface it can sit on, 3 for
 * underlines and the cursor). The backgrounds are Mantine's body colours, so the editor sits in
 * the page; every colour is opaque so the test measures what the user sees.
 */
export interface EditorPalette {
  dark: boolean;
  background: string;
  foreground: string;
  cursor: string;
  /** The line with the cursor, and the selection: text keeps its contrast over both. */
  activeLine: string;
  selection: string;
  gutterBackground: string;
  gutterForeground: string;
  activeLineGutter: string;
  matchingBracket: string;
  searchMatch: string;
  /** Tooltips (hover, completion, problems) and panels (search, problems). */
  tooltipBackground: string;
  tooltipForeground: string;
  tooltipBorder: string;
  completionSelected: string;
  tokens: {
    key: string;
    string: string;
    number: string;
    boolean: string;
    comment: string;
    /** `---`, `...` and directives. */
    meta: string;
    /** Anchors and aliases (`&base`, `*base`). */
    label: string;
    /** Tags (`!!str`). */
    tag: string;
    punctuation: string;
  };
  /** Problem underlines and the bar beside a problem's message. */
  lint: { error: string; warning: string; info: string };
  /** The diff before saving: whole lines added or removed, and the changed characters in them. */
  merge: { insertedLine: string; deletedLine: string; insertedText: string; deletedText: string };
}

export const EDITOR_PALETTES: Readonly<Record<'light' | 'dark', EditorPalette>> = {
  light: {
    dark: false,
    background: '#ffffff',
    foreground: '#1f2328',
    cursor: '#1f2328',
    activeLine: '#f2f5f9',
    selection: '#d3e4fb',
    gutterBackground: '#f6f8fa',
    gutterForeground: '#555e69',
    activeLineGutter: '#e6ebf1',
    matchingBracket: '#c7e8d2',
    searchMatch: '#fbe7a1',
    tooltipBackground: '#ffffff',
    tooltipForeground: '#1f2328',
    tooltipBorder: '#c9d1d9',
    completionSelected: '#d3e4fb',
    tokens: {
      key: '#0550ae',
      string: '#116329',
      number: '#953800',
      boolean: '#6639ba',
      comment: '#525b65',
      meta: '#6639ba',
      label: '#0a6374',
      tag: '#953800',
      punctuation: '#424a53',
    },
    lint: { error: '#c21f1f', warning: '#9a6700', info: '#0550ae' },
    merge: { insertedLine: '#e6f6ea', deletedLine: '#fdecea', insertedText: '#c4ebcd', deletedText: '#fad3cf' },
  },
  dark: {
    dark: true,
    background: '#242424',
    foreground: '#dcdcdc',
    cursor: '#f0f0f0',
    activeLine: '#2d3035',
    selection: '#283f5c',
    gutterBackground: '#1f1f1f',
    gutterForeground: '#a3a3a3',
    activeLineGutter: '#2d3035',
    matchingBracket: '#2a4431',
    searchMatch: '#4a3f14',
    tooltipBackground: '#2e2e2e',
    tooltipForeground: '#e4e4e4',
    tooltipBorder: '#4a4a4a',
    completionSelected: '#283f5c',
    tokens: {
      key: '#82c4ff',
      string: '#9ed9a0',
      number: '#f6b07a',
      boolean: '#d5aefc',
      comment: '#b3b9c0',
      meta: '#d5aefc',
      label: '#7fdcd0',
      tag: '#f6b07a',
      punctuation: '#bdbdbd',
    },
    lint: { error: '#ff8c8c', warning: '#f0c95a', info: '#82c4ff' },
    merge: { insertedLine: '#1f3626', deletedLine: '#40262a', insertedText: '#274a31', deletedText: '#5e2e34' },
  },
};
