import { autocompletion } from '@codemirror/autocomplete';
import { yaml } from '@codemirror/lang-yaml';
import { forceLinting, linter, lintGutter } from '@codemirror/lint';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, hoverTooltip, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useEffectEvent, useRef } from 'react';
import type { JsonSchemaNode } from '../model/config-schema';
import type { ConfigProblem } from '../model/problems';
import { completeFromSchema, hoverFromSchema, toDiagnostics } from './config-extensions';
import { useEditorTheme } from './use-editor-theme';
import { yamlScalars } from './yaml-scalars';

export interface ConfigEditorProps {
  /** The text to show; the editor takes it whenever `replaced` changes (a load or reload). */
  text: string;
  replaced: number;
  schema: JsonSchemaNode | undefined;
  onChange(text: string): void;
  /** Checks the text with the relay (debounced by the editor); its problems are underlined. */
  validate(text: string): Promise<ConfigProblem[]>;
  /** Checks the text again when this changes: after a reconnect, the last check may have been refused. */
  recheck?: number;
  onSave(): void;
  /** Moves the cursor (a problem clicked in the list). */
  jumpTo?: { line: number; column: number; at: number };
}

/**
 * CodeMirror 6 with YAML, schema completion and hover, and the relay's validation as you type.
 * Tab is left to move focus (not to indent), so keyboard users can leave the editor.
 */
export function ConfigEditor({ text, replaced, schema, onChange, validate, onSave, jumpTo, recheck }: ConfigEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ schema, onChange, validate, onSave });
  latest.current = { schema, onChange, validate, onSave };
  const theme = useEditorTheme(view);
  // The text of the moment, read when the editor is built or a load replaces it and never reacted
  // to: typing flows the other way (onChange), and a render that lags behind a keystroke must not
  // put the older text back.
  const textNow = useEffectEvent(() => text);

  useEffect(() => {
    const currentSchema = () => latest.current.schema;
    const hover = hoverFromSchema(currentSchema);
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: textNow(),
        extensions: [
          basicSetup,
          yaml(),
          yamlScalars,
          theme(),
          // Long source URLs wrap and the page scrolls, rather than a scroll box inside the page
          // that a keyboard cannot reach.
          EditorView.lineWrapping,
          EditorState.tabSize.of(2),
          autocompletion({ override: [completeFromSchema(currentSchema)] }),
          hoverTooltip((v, pos) => hover(v.state.doc.toString(), pos)),
          lintGutter(),
          linter(async (v) => toDiagnostics(v.state.doc, await latest.current.validate(v.state.doc.toString())), { delay: 350 }),
          Prec.highest(keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (latest.current.onSave(), true) }])),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': 'Config file (YAML)', 'aria-multiline': 'true' }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // Made once (`theme` never changes); text from outside arrives through `replaced` below.
  }, [theme]);

  // Only a load or reload replaces the text.
  useEffect(() => {
    const editor = view.current;
    const next = textNow();
    if (!editor || editor.state.doc.toString() === next) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: next } });
  }, [replaced]);

  useEffect(() => {
    if (view.current && recheck) forceLinting(view.current);
  }, [recheck]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || !jumpTo) return;
    const line = editor.state.doc.line(Math.min(Math.max(jumpTo.line, 1), editor.state.doc.lines));
    const pos = Math.min(line.from + Math.max(jumpTo.column - 1, 0), line.to);
    editor.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    editor.focus();
  }, [jumpTo]);

  return <div ref={host} className="config-editor" data-testid="config-editor" />;
}
