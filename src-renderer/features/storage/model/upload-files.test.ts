import { describe, expect, it } from 'vitest';
import { relativePathOf, uploadPlan } from './upload-files';

describe('upload paths', () => {
  it('keeps a picked or dropped folder with its sub-folders', () => {
    expect(relativePathOf({ name: 'a.jpg', size: 1, webkitRelativePath: 'trip/day1/a.jpg' })).toBe('trip/day1/a.jpg');
    expect(relativePathOf({ name: 'a.jpg', size: 1, path: '/trip/day1/a.jpg' })).toBe('trip/day1/a.jpg');
    expect(relativePathOf({ name: 'a.jpg', size: 1, path: './a.jpg' })).toBe('a.jpg');
    expect(relativePathOf({ name: 'a.jpg', size: 1, path: 'C:\\Users\\me\\a.jpg'.slice(3) })).toBe('Users/me/a.jpg');
  });

  it('uses the name of a loose file', () => {
    expect(relativePathOf({ name: 'notes.md', size: 1 })).toBe('notes.md');
    expect(relativePathOf({ name: 'notes.md', size: 1, webkitRelativePath: '' })).toBe('notes.md');
  });

  it('leaves out a second file for the same key and names it', () => {
    const plan = uploadPlan([
      { name: 'a.jpg', size: 1, path: '/x/a.jpg' },
      { name: 'a.jpg', size: 2, webkitRelativePath: 'x/a.jpg' },
      { name: 'b.jpg', size: 3 },
    ]);
    expect(plan.files.map((f) => f.relativePath)).toEqual(['x/a.jpg', 'b.jpg']);
    expect(plan.duplicates).toEqual(['x/a.jpg']);
  });
});
