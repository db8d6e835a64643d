import { yaml } from '@codemirror/lang-yaml';
import { unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

/** The draft against the file on disk, one column, changed lines marked; read-only, unchanged runs folded. */
export function DiffView({ onDisk, draft }: { onDisk: string; draft: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: draft,
        extensions: [
          basicSetup,
          yaml(),
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
    return () => view.destroy();
  }, [onDisk, draft]);
  return <div ref={host} className="config-diff" data-testid="config-diff" />;
}
