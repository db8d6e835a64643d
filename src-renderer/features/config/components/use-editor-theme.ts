import { Compartment } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { useComputedColorScheme } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { EDITOR_THEMES } from './editor-theme';

/**
 * The editor's theme follows the console's (System follows the OS, live). It sits in a
 * Compartment, so switching it reconfigures the editor in place: the text, the undo history and
 * the cursor stay as they were. Returns the extension to build the editor with.
 */
export function useEditorTheme(view: RefObject<EditorView | null>) {
  // Read at once (not after a first render in light), so a dark console never builds a light editor.
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const [compartment] = useState(() => new Compartment());
  const current = useRef(scheme);
  current.current = scheme;

  useEffect(() => {
    view.current?.dispatch({ effects: compartment.reconfigure(EDITOR_THEMES[scheme]) });
  }, [scheme, compartment, view]);

  // For the editor's construction: the theme of the moment, inside the compartment. The function
  // stays the same across renders, so an effect that builds an editor with it is not run again
  // when the scheme changes (the compartment swaps the theme in place).
  return useCallback(() => compartment.of(EDITOR_THEMES[current.current]), [compartment]);
}
