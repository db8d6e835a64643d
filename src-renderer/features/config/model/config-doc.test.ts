import { describe, expect, it } from 'vitest';
import {
  appliedSummary,
  configDoc,
  differsFromDisk,
  emptyConfigDoc,
  isDirty,
  notApplied,
  saveDecision,
  type ConfigDoc,
  type ConfigDocEvent,
} from './config-doc';

/** A file read from disk; the engine runs `running` (the same file unless said otherwise). */
const file = (text: string, revision: string, running = revision) => ({
  path: '/etc/relay.yaml',
  text,
  revision,
  runningRevision: running,
});
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
    const doc = run(
      { type: 'loaded', file: file('a: 1\n', 'r1') },
      { type: 'edited', text: 'a: 2\n' },
      { type: 'disk-changed', file: file('a: 2\n', 'r2') },
    );
    expect(doc).toMatchObject({ draft: 'a: 2\n', base: { revision: 'r2' }, replaced: 1 });
    expect(doc.newerOnDisk).toBeUndefined();
    expect(configDoc(doc, { type: 'disk-changed', file: file('a: 2\n', 'r2') })).toBe(doc);
  });

  it('offers a newer file instead of dropping unsaved work; reload or keep mine', () => {
    const conflicted = run(
      { type: 'loaded', file: file('a: 1\n', 'r1') },
      { type: 'edited', text: 'a: 2\n' },
      { type: 'disk-changed', file: file('b: 1\n', 'r3') },
    );
    expect(conflicted).toMatchObject({ draft: 'a: 2\n', base: { revision: 'r1' }, newerOnDisk: { revision: 'r3' } });
    const taken = configDoc(conflicted, { type: 'take-disk' });
    expect(taken).toMatchObject({ draft: 'b: 1\n', base: { revision: 'r3' }, replaced: 2 });
    expect(taken.newerOnDisk).toBeUndefined();
    const kept = configDoc(conflicted, { type: 'keep-mine' });
    expect(kept).toMatchObject({ draft: 'a: 2\n', base: { text: 'b: 1\n', revision: 'r3' }, replaced: 1 });
    expect(kept.newerOnDisk).toBeUndefined();
    expect(isDirty(kept)).toBe(true);
  });

  it('knows when the file on disk is not what the engine runs, until it is applied or saved', () => {
    const loaded = run({ type: 'loaded', file: file('a: 1\n', 'r1') });
    expect(notApplied(loaded)).toBe(false);
    // Edited in another editor: the editor follows it, the engine still runs r1.
    const outside = configDoc(loaded, { type: 'disk-changed', file: file('a: 3\n', 'r3', 'r1') });
    expect(outside).toMatchObject({ draft: 'a: 3\n', notice: 'reloaded-from-disk' });
    expect(notApplied(outside)).toBe(true);
    expect(differsFromDisk(outside)).toBe(false);
    // An apply of an older revision says nothing about this one.
    expect(configDoc(outside, { type: 'applied', revision: 'r2' })).toBe(outside);
    expect(notApplied(configDoc(outside, { type: 'applied', revision: 'r3' }))).toBe(false);
    // A save through the engine is running as soon as it is written.
    const saved = configDoc(configDoc(outside, { type: 'edited', text: 'a: 4\n' }), { type: 'saved', text: 'a: 4\n', revision: 'r4' });
    expect(notApplied(saved)).toBe(false);
    // The watcher bringing back the same state changes nothing.
    const same = configDoc(saved, { type: 'disk-changed', file: file('a: 4\n', 'r4') });
    expect(same).toBe(saved);
  });

  it('notices a change on disk that is not applied even with unsaved work, and reloads only when asked', () => {
    const conflicted = run(
      { type: 'loaded', file: file('a: 1\n', 'r1') },
      { type: 'edited', text: 'a: 2\n' },
      { type: 'disk-changed', file: file('b: 1\n', 'r3', 'r1') },
    );
    expect(notApplied(conflicted)).toBe(true);
    expect(differsFromDisk(conflicted)).toBe(true);
    expect(conflicted.draft).toBe('a: 2\n');
    const reloaded = configDoc(conflicted, { type: 'reload' });
    expect(reloaded).toMatchObject({ draft: 'b: 1\n', base: { revision: 'r3' } });
    expect(reloaded.newerOnDisk).toBeUndefined();
    expect(isDirty(reloaded)).toBe(false);
    expect(differsFromDisk(reloaded)).toBe(false);
  });

  it.each<{ name: string; events: ConfigDocEvent[]; errors: number; restart: boolean; expected: ReturnType<typeof saveDecision> }>([
    { name: 'nothing edited, nothing pending', events: [], errors: 0, restart: true, expected: { kind: 'nothing', notApplied: false } },
    { name: 'an edit', events: [{ type: 'edited', text: 'a: 2\n' }], errors: 0, restart: false, expected: { kind: 'write' } },
    {
      name: 'an edit with errors',
      events: [{ type: 'edited', text: 'a: [\n' }],
      errors: 1,
      restart: true,
      expected: { kind: 'errors', count: 1 },
    },
    {
      name: 'restart with a file changed on disk',
      events: [{ type: 'disk-changed', file: file('a: 3\n', 'r3', 'r1') }],
      errors: 0,
      restart: true,
      expected: { kind: 'restart-only' },
    },
    {
      name: 'restart with a broken file on disk',
      events: [{ type: 'disk-changed', file: file('a: [\n', 'r3', 'r1') }],
      errors: 1,
      restart: true,
      expected: { kind: 'errors', count: 1 },
    },
    {
      name: 'save with a file changed on disk',
      events: [{ type: 'disk-changed', file: file('a: 3\n', 'r3', 'r1') }],
      errors: 0,
      restart: false,
      expected: { kind: 'nothing', notApplied: true },
    },
  ])('save decision: $name', ({ events, errors, restart, expected }) => {
    const doc = run({ type: 'loaded', file: file('a: 1\n', 'r1') }, ...events);
    expect(saveDecision(doc, errors, restart)).toEqual(expected);
  });

  it('says what an apply did and what waits for a restart', () => {
    expect(
      appliedSummary({ revision: 'r', streams: { added: ['yard', 'gate'], changed: ['door'], removed: ['old'] }, restartNeeded: [] }),
    ).toEqual(['Streams added yard, gate; changed door; removed old.']);
    expect(appliedSummary({ revision: 'r', streams: { added: [], changed: [], removed: [] }, restartNeeded: ['api', 'log'] })).toEqual([
      'No stream changed.',
      'Changes to api, log take effect after a restart: use Save and restart.',
    ]);
  });

  it('takes a file fetched again after a reconnect as a change on disk it may have missed', () => {
    const first = run({ type: 'read', file: file('a: 1\n', 'r1') });
    expect(first).toMatchObject({ draft: 'a: 1\n', base: { revision: 'r1' }, replaced: 1 });
    expect(configDoc(first, { type: 'read', file: file('a: 1\n', 'r1') })).toBe(first);
    const missed = configDoc(first, { type: 'read', file: file('a: 5\n', 'r5', 'r1') });
    expect(missed).toMatchObject({ draft: 'a: 5\n', notice: 'reloaded-from-disk' });
    expect(notApplied(missed)).toBe(true);
  });
});
