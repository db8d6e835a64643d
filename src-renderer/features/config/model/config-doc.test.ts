import { describe, expect, it } from 'vitest';
import { configDoc, emptyConfigDoc, isDirty, type ConfigDoc, type ConfigDocEvent } from './config-doc';

const file = (text: string, revision: string) => ({ path: '/etc/relay.yaml', text, revision });
const run = (...events: ConfigDocEvent[]): ConfigDoc => events.reduce(configDoc, emptyConfigDoc);

describe('config document', () => {
  it('tracks unsaved edits against the file it was read from', () => {
    const loaded = run({ type: 'loaded', file: file('a: 1\n', 'r1') });
    expect(loaded).toMatchObject({ draft: 'a: 1\n', replaced: 1 });
    expect(isDirty(loaded)).toBe(false);
    const edited = configDoc(loaded, { type: 'edited', text: 'a: 2\n' });
    expect(isDirty(edited)).toBe(true);
    const saved = configDoc(edited, { type: 'saved', text: 'a: 2\n', revision: 'r2' });
    expect(isDirty(saved)).toBe(false);
    expect(saved.base?.revision).toBe('r2');
    const reverted = configDoc(configDoc(saved, { type: 'edited', text: 'oops' }), { type: 'revert' });
    expect(reverted).toMatchObject({ draft: 'a: 2\n', replaced: 2 });
  });

  it('follows a change on disk when nothing is unsaved, and says so', () => {
    const doc = run({ type: 'loaded', file: file('a: 1\n', 'r1') }, { type: 'disk-changed', file: file('a: 3\n', 'r3') });
    expect(doc).toMatchObject({ draft: 'a: 3\n', base: { revision: 'r3' }, replaced: 2, notice: 'reloaded-from-disk' });
    // The editor showing the reloaded text is not an edit.
    expect(configDoc(doc, { type: 'edited', text: 'a: 3\n' })).toBe(doc);
    expect(configDoc(doc, { type: 'edited', text: 'a: 4\n' }).notice).toBeUndefined();
  });

  it('takes its own save coming back from the watcher quietly', () => {
    const doc = run({ type: 'loaded', file: file('a: 1\n', 'r1') }, { type: 'edited', text: 'a: 2\n' }, { type: 'disk-changed', file: file('a: 2\n', 'r2') });
    expect(doc).toMatchObject({ draft: 'a: 2\n', base: { revision: 'r2' }, replaced: 1 });
    expect(doc.newerOnDisk).toBeUndefined();
    expect(configDoc(doc, { type: 'disk-changed', file: file('a: 2\n', 'r2') })).toBe(doc);
  });

  it('offers a newer file instead of dropping unsaved work; reload or keep mine', () => {
    const conflicted = run({ type: 'loaded', file: file('a: 1\n', 'r1') }, { type: 'edited', text: 'a: 2\n' }, { type: 'disk-changed', file: file('b: 1\n', 'r3') });
    expect(conflicted).toMatchObject({ draft: 'a: 2\n', base: { revision: 'r1' }, newerOnDisk: { revision: 'r3' } });
    const taken = configDoc(conflicted, { type: 'take-disk' });
    expect(taken).toMatchObject({ draft: 'b: 1\n', base: { revision: 'r3' }, replaced: 2 });
    expect(taken.newerOnDisk).toBeUndefined();
    const kept = configDoc(conflicted, { type: 'keep-mine' });
    expect(kept).toMatchObject({ draft: 'a: 2\n', base: { text: 'b: 1\n', revision: 'r3' }, replaced: 1 });
    expect(kept.newerOnDisk).toBeUndefined();
    expect(isDirty(kept)).toBe(true);
  });
});
