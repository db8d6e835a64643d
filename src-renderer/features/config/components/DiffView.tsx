import { yaml } from '@codemirror/lang-yaml';
import { unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { useEditorTheme } from './use-editor-theme';
import { yamlScalars } from './yaml-scalars';

/** The draft against the file on disk, one column, changed lines marked; read-only, unchanged runs folded. */
export function DiffView({ onDisk, draft }: { onDisk: string; draft: string }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const theme = useEditorTheme(view);
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: draft,
        extensions: [
          basicSetup,
          yaml(),
          yamlScalars,
          theme(),
          // Long source URLs wrap and the page scrolls, rather than a scroll box inside the page
          // that a keyboard cannot reach.
          EditorView.lineWrapping,
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          unifiedMergeView({ original: onDisk, mergeControls: false, collapseUnchanged: { margin: 2, minSize: 6 } }),
          EditorView.contentAttributes.of({ 'aria-label': 'Changes to the config file' }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      view.current = null;
      editor.destroy();
    };
    // `theme` never changes: a new scheme is swapped in place (useEditorTheme), not by building the view again.
  }, [onDisk, draft, theme]);
  return <div ref={host} className="config-diff" data-testid="config-diff" />;
}
