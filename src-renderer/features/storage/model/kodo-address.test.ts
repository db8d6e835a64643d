import { describe, expect, it } from 'vitest';
import { foldersTo, nameOf, parentFolder, parseAddress, printAddress } from './kodo-address';

describe('kodo address', () => {
  it.each([
    ['kodo://photos/2024/', { bucket: 'photos', prefix: '2024/' }],
    ['photos/2024', { bucket: 'photos', prefix: '2024/' }],
    ['  /photos ', { bucket: 'photos', prefix: '' }],
    ['KODO://photos/a b/c/', { bucket: 'photos', prefix: 'a b/c/' }],
  ])('%s is a folder', (text, location) => {
    expect(parseAddress(text)).toEqual(location);
    if (!('error' in location)) expect(parseAddress(printAddress(location))).toEqual(location);
  });

  it.each([
    ['', /type a bucket/],
    ['kodo://', /type a bucket/],
    ['kodo://bad.name/x', /not a bucket name/],
  ])('%j is refused with a reason', (text, reason) => {
    expect(parseAddress(text)).toEqual({ error: expect.stringMatching(reason) });
  });

  it('walks up, names rows and lists the folders on the way', () => {
    expect(parentFolder('a/b/')).toBe('a/');
    expect(parentFolder('a/')).toBe('');
    expect(parentFolder('')).toBeUndefined();
    expect(nameOf('a/b/')).toBe('b');
    expect(nameOf('a/c.txt')).toBe('c.txt');
    expect(nameOf('top.txt')).toBe('top.txt');
    expect(foldersTo('a/b/')).toEqual(['a/', 'a/b/']);
    expect(foldersTo('')).toEqual([]);
  });
});
