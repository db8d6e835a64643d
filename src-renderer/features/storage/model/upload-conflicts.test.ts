import { describe, expect, it } from 'vitest';
import { applyDecisions, conflictsLeft, currentConflict, decide, startConflicts } from './upload-conflicts';

describe('conflicts of an upload batch', () => {
  it('asks one conflict at a time until each has an answer', () => {
    let round = startConflicts(['a.jpg', 'b.jpg', 'c.jpg']);
    expect([currentConflict(round), conflictsLeft(round)]).toEqual(['a.jpg', 3]);
    round = decide(round, 'overwrite', false);
    expect([currentConflict(round), conflictsLeft(round)]).toEqual(['b.jpg', 2]);
    round = decide(round, 'skip', false);
    round = decide(round, 'keep-both', false);
    expect(currentConflict(round)).toBeUndefined();
    expect(Object.fromEntries(round.decisions)).toEqual({ 'a.jpg': 'overwrite', 'b.jpg': 'skip', 'c.jpg': 'keep-both' });
  });

  it('answers every conflict left at once with "apply to all"', () => {
    let round = decide(startConflicts(['a', 'b', 'c']), 'skip', false);
    round = decide(round, 'keep-both', true);
    expect(currentConflict(round)).toBeUndefined();
    expect(Object.fromEntries(round.decisions)).toEqual({ a: 'skip', b: 'keep-both', c: 'keep-both' });
  });

  it.each([
    ['overwrite', ['new.txt', 'a.txt'], [], { 'a.txt': 'overwrite' }],
    ['skip', ['new.txt'], ['a.txt'], {}],
    ['keep-both', ['new.txt', 'a.txt'], [], { 'a.txt': 'keep-both' }],
  ] as const)('%s: files sent, skipped, and their answer for main', (choice, sent, skipped, answers) => {
    const files = ['new.txt', 'a.txt'].map((relativePath) => ({ file: relativePath, relativePath }));
    const plan = applyDecisions(files, decide(startConflicts(['a.txt']), choice, true));
    expect(plan.files.map((f) => f.relativePath)).toEqual(sent);
    expect(plan.skipped).toEqual(skipped);
    expect(Object.fromEntries(plan.files.flatMap((f) => (f.onConflict ? [[f.relativePath, f.onConflict]] : [])))).toEqual(answers);
  });
});
