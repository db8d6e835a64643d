import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { ConfigProblem } from '../model/problems';
import type { JsonSchemaNode } from '../model/config-schema';
import { schemaCompletions, siblingKeys } from '../model/schema-completions';
import { schemaHover } from '../model/schema-hover';
import { yamlPathAt } from '../model/yaml-path-at';

/** Completion from the config's JSON Schema: keys of the mapping under the cursor, values a key allows. */
export function completeFromSchema(schema: () => JsonSchemaNode | undefined) {
  return (context: CompletionContext): CompletionResult | null => {
    const root = schema();
    if (!root) return null;
    const text = context.state.doc.toString();
    const at = yamlPathAt(text, context.pos);
    if (!context.explicit && at.prefix === '' && at.kind === 'key') return null;
    const line = context.state.doc.lineAt(context.pos);
    const indent = /^\s*/.exec(line.text)![0];
    const options = schemaCompletions(root, at, at.kind === 'key' ? siblingKeys(text, context.pos) : []).map((option) => ({
      label: option.label,
      // A mapping key opens its block on the next line, one level in.
      apply: option.apply.endsWith('\n') ? `${option.label}:\n${indent}  ` : option.apply,
      type: option.type,
      detail: option.detail,
      ...(option.info ? { info: option.info } : {}),
    }));
    return options.length ? { from: at.from, options, validFor: /^[\w.-]*$/ } : null;
  };
}

/** The tooltip of a key: its path, type and description. */
export function hoverFromSchema(schema: () => JsonSchemaNode | undefined) {
  return (text: string, pos: number) => {
    const root = schema();
    const hover = root ? schemaHover(root, text, pos) : undefined;
    if (!hover) return null;
    return {
      pos: hover.from,
      end: hover.to,
      above: true,
      create: () => {
        const dom = document.createElement('div');
        dom.className = 'config-hover';
        const title = dom.appendChild(document.createElement('strong'));
        title.textContent = hover.path;
        const type = dom.appendChild(document.createElement('div'));
        type.textContent = hover.type;
        if (hover.description) dom.appendChild(document.createElement('p')).textContent = hover.description;
        return { dom };
      },
    };
  };
}

/** The relay's problems as editor diagnostics, underlined at their line and column. */
export function toDiagnostics(doc: Text, problems: readonly ConfigProblem[]): Diagnostic[] {
  return problems.map((problem) => {
    const line = doc.line(Math.min(Math.max(problem.line ?? 1, 1), doc.lines));
    const from = Math.min(line.from + Math.max((problem.column ?? 1) - 1, 0), line.to);
    return { from, to: Math.max(line.to, from), severity: problem.severity, message: problem.message };
  });
}
