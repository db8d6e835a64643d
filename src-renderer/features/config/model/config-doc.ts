import type { ConfigApplied, ConfigFile } from '@shared/contract/relay';

/**
 * The config being edited against the file on disk. `base` is the file the draft started from
 * (its revision guards the write); `newerOnDisk` is a change made elsewhere that the user has
 * not yet taken or set aside; `replaced` counts the times the draft was swapped from outside
 * the editor, so the editor knows to show the new text.
 */
export interface ConfigDoc {
  base?: ConfigFile;
  draft: string;
  newerOnDisk?: ConfigFile;
  /**
   * The file as last read from disk, with the revision the engine runs: they differ when the file
   * was edited outside the console and not applied (the engine does not watch it by itself).
   */
  disk?: ConfigFile;
  replaced: number;
  /** Why the draft was last swapped without the user asking: shown once. */
  notice?: 'reloaded-from-disk';
}

export type ConfigDocEvent =
  | { type: 'loaded'; file: ConfigFile }
  /** The file fetched again (first load, or after a reconnect, when change events may have been missed). */
  | { type: 'read'; file: ConfigFile }
  | { type: 'edited'; text: string }
  | { type: 'saved'; text: string; revision: string }
  | { type: 'disk-changed'; file: ConfigFile }
  | { type: 'applied'; revision: string }
  | { type: 'take-disk' }
  | { type: 'reload' }
  | { type: 'revert' }
  | { type: 'keep-mine' };

export const emptyConfigDoc: ConfigDoc = { draft: '', replaced: 0 };

export const isDirty = (doc: ConfigDoc): boolean => doc.base !== undefined && doc.draft !== doc.base.text;

/** The file on disk is not what the engine runs: it was edited outside the console and not applied. */
export const notApplied = (doc: ConfigDoc): boolean => doc.disk !== undefined && doc.disk.revision !== doc.disk.runningRevision;

/** The editor shows something other than the file on disk (unsaved edits, or a newer file set aside). */
export const differsFromDisk = (doc: ConfigDoc): boolean => doc.disk !== undefined && doc.draft !== doc.disk.text;

const replaceDraft = (doc: ConfigDoc, file: ConfigFile, notice?: ConfigDoc['notice']): ConfigDoc => ({
  base: file,
  draft: file.text,
  replaced: doc.replaced + 1,
  ...(doc.disk ? { disk: doc.disk } : {}),
  ...(notice ? { notice } : {}),
});

export function configDoc(doc: ConfigDoc, event: ConfigDocEvent): ConfigDoc {
  switch (event.type) {
    case 'loaded':
      return replaceDraft({ ...doc, disk: event.file }, event.file);
    case 'read':
      return configDoc(doc, doc.base ? { type: 'disk-changed', file: event.file } : { type: 'loaded', file: event.file });
    case 'edited':
      // The editor echoes text it was given; only a real edit clears the notice.
      return event.text === doc.draft ? doc : { ...doc, draft: event.text, notice: undefined };
    case 'saved': {
      // A save writes through the engine, which runs what it wrote.
      const base = { ...doc.base!, text: event.text, revision: event.revision, runningRevision: event.revision };
      return { ...doc, base, disk: base, newerOnDisk: undefined };
    }
    case 'disk-changed': {
      const { file } = event;
      if (!doc.base) return doc;
      const sameDisk = doc.disk?.revision === file.revision && doc.disk.runningRevision === file.runningRevision;
      const known = sameDisk ? doc : { ...doc, disk: file };
      if (file.revision === doc.base.revision) return known;
      // Our own save coming back, or someone wrote what we have: nothing to ask.
      if (file.text === doc.draft) return { ...known, base: file, newerOnDisk: undefined };
      // No unsaved work to lose: follow the file, and say so.
      if (!isDirty(doc)) return replaceDraft(known, file, 'reloaded-from-disk');
      return { ...known, newerOnDisk: file };
    }
    case 'applied':
      return doc.disk?.revision === event.revision ? { ...doc, disk: { ...doc.disk, runningRevision: event.revision } } : doc;
    case 'reload':
      return doc.disk ? { ...replaceDraft(doc, doc.disk), newerOnDisk: undefined } : doc;
    case 'revert':
      return doc.base ? replaceDraft(doc, doc.base) : doc;
    case 'take-disk':
      return doc.newerOnDisk ? replaceDraft(doc, doc.newerOnDisk) : doc;
    case 'keep-mine':
      // The next save writes over the newer file on purpose (its diff is shown against it first).
      return doc.newerOnDisk ? { ...doc, base: doc.newerOnDisk, newerOnDisk: undefined } : doc;
  }
}

export type SaveDecision =
  | { kind: 'write' }
  /** Nothing to write, but the file on disk is not running: a restart starts the engine on it. */
  | { kind: 'restart-only' }
  | { kind: 'errors'; count: number }
  | { kind: 'nothing'; notApplied: boolean };

/** What Save (or Save and restart) does with this document and this many errors in it. */
export function saveDecision(doc: ConfigDoc, errors: number, restart: boolean): SaveDecision {
  const dirty = isDirty(doc);
  const restartOnly = !dirty && restart && notApplied(doc);
  // A file the relay cannot read is never written, nor restarted with.
  if ((dirty || restartOnly) && errors > 0) return { kind: 'errors', count: errors };
  if (dirty) return { kind: 'write' };
  if (restartOnly) return { kind: 'restart-only' };
  return { kind: 'nothing', notApplied: notApplied(doc) };
}

/** What the user reads after Apply: what changed at once, and what waits for a restart. */
export function appliedSummary(applied: ConfigApplied): string[] {
  const { added, changed, removed } = applied.streams;
  const parts = [
    added.length > 0 ? `added ${added.join(', ')}` : '',
    changed.length > 0 ? `changed ${changed.join(', ')}` : '',
    removed.length > 0 ? `removed ${removed.join(', ')}` : '',
  ].filter(Boolean);
  const lines = [parts.length > 0 ? `Streams ${parts.join('; ')}.` : 'No stream changed.'];
  if (applied.restartNeeded.length > 0) {
    const sections = applied.restartNeeded.join(', ');
    lines.push(`Changes to ${sections} take effect after a restart: use Save and restart.`);
  }
  return lines;
}
