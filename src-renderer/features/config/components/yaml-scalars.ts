import { syntaxTree } from '@codemirror/language';
import { RangeSetBuilder } from '@codemirror/state';
import { Decoration, type DecorationSet, type EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { plainScalarKind, type ScalarKind } from '../model/yaml-scalar-kind';

const MARKS: Record<ScalarKind, Decoration> = {
  string: Decoration.mark({ class: 'cm-yaml-string' }),
  number: Decoration.mark({ class: 'cm-yaml-number' }),
  boolean: Decoration.mark({ class: 'cm-yaml-boolean' }),
  null: Decoration.mark({ class: 'cm-yaml-null' }),
};

// Plain values in view, marked by what YAML reads them as (keys are the grammar's own token).
function marksInView(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const { from, to } of view.visibleRanges) {
    syntaxTree(view.state).iterate({
      from,
      to,
      enter: (node) => {
        if (node.name === 'Key') return false;
        if (node.name !== 'Literal') return undefined;
        builder.add(node.from, node.to, MARKS[plainScalarKind(view.state.sliceDoc(node.from, node.to))]);
        return false;
      },
    });
  }
  return builder.finish();
}

/**
 * Colours plain YAML values as text, numbers, booleans or null: the YAML grammar gives them all
 * one token, so without this `8554`, `true` and `rtsp://…` would look the same.
 */
export const yamlScalars = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = marksInView(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged || syntaxTree(update.startState) !== syntaxTree(update.state))
        this.decorations = marksInView(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
