import type { ConfigFile } from '../../../../src-shared/contract/relay';

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
  replaced: number;
  /** Why the draft was last swapped without the user asking: shown once. */
  notice?: 'reloaded-from-disk';
}

export type ConfigDocEvent =
  | { type: 'loaded'; file: ConfigFile }
  | { type: 'edited'; text: string }
  | { type: 'saved'; text: string; revision: string }
  | { type: 'disk-changed'; file: ConfigFile }
  | { type: 'take-disk' }
  | { type: 'revert' }
  | { type: 'keep-mine' };

export const emptyConfigDoc: ConfigDoc = { draft: '', replaced: 0 };

export const isDirty = (doc: ConfigDoc): boolean => doc.base !== undefined && doc.draft !== doc.base.text;

const replaceDraft = (doc: ConfigDoc, file: ConfigFile, notice?: ConfigDoc['notice']): ConfigDoc => ({
  base: file,
  draft: file.text,
  replaced: doc.replaced + 1,
  ...(notice ? { notice } : {}),
});

export function configDoc(doc: ConfigDoc, event: ConfigDocEvent): ConfigDoc {
  switch (event.type) {
    case 'loaded':
      return replaceDraft(doc, event.file);
    case 'edited':
      // The editor echoes text it was given; only a real edit clears the notice.
      return event.text === doc.draft ? doc : { ...doc, draft: event.text, notice: undefined };
    case 'saved':
      return { ...doc, base: { ...doc.base!, text: event.text, revision: event.revision }, newerOnDisk: undefined };
    case 'disk-changed': {
      const { file } = event;
      if (!doc.base || file.revision === doc.base.revision) return doc;
      // Our own save coming back, or someone wrote what we have: nothing to ask.
      if (file.text === doc.draft) return { ...doc, base: file, newerOnDisk: undefined };
      // No unsaved work to lose: follow the file, and say so.
      if (!isDirty(doc)) return replaceDraft(doc, file, 'reloaded-from-disk');
      return { ...doc, newerOnDisk: file };
    }
    case 'revert':
      return doc.base ? replaceDraft(doc, doc.base) : doc;
    case 'take-disk':
      return doc.newerOnDisk ? replaceDraft(doc, doc.newerOnDisk) : doc;
    case 'keep-mine':
      // The next save writes over the newer file on purpose (its diff is shown against it first).
      return doc.newerOnDisk ? { ...doc, base: doc.newerOnDisk, newerOnDisk: undefined } : doc;
  }
}
