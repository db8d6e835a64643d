import type { StreamFormValues } from '@shared/contract/relay';

/** The stream being edited as the form starts from it (its sources as the console shows them). */
export interface EditedStream {
  /** The remote relay it is on; absent for the embedded relay's. */
  relay?: string;
  name: string;
  sources: string[];
}

/** The form's first values: a new stream starts with one empty source, a stream with none gets one to fill. */
export function initialValues(editing: EditedStream | undefined): StreamFormValues {
  if (!editing) return { name: '', sources: [{ url: '' }] };
  const sources = editing.sources.length > 0 ? editing.sources : [''];
  return { name: editing.name, sources: sources.map((url) => ({ url })) };
}

/** Why the name cannot be used: taken by another stream (the stream's own name is fine). */
export function nameProblem(name: string, existingNames: readonly string[], original?: string): string | undefined {
  if (name === original || !existingNames.includes(name)) return undefined;
  return `a stream named ${name} exists already: choose another name${original ? '' : ', or edit that stream'}`;
}

/** What the relay is asked to save: trimmed sources in the listed order, and `newName` only when it changed. */
export function toSave(values: StreamFormValues, original?: string): { name: string; newName?: string; sources: string[] } {
  const sources = values.sources.map((source) => source.url.trim());
  if (original === undefined || original === values.name) return { name: values.name, sources };
  return { name: original, newName: values.name, sources };
}

/** Where a dragged source lands, by the ids of the list's rows; undefined when nothing moves. */
export function dropMove(ids: readonly string[], active: string, over: string | undefined): { from: number; to: number } | undefined {
  if (over === undefined || active === over) return undefined;
  const from = ids.indexOf(active);
  const to = ids.indexOf(over);
  return from < 0 || to < 0 ? undefined : { from, to };
}

/** A source's name in labels and announcements: "Source 2". */
export const sourceLabel = (index: number) => `Source ${index + 1}`;
