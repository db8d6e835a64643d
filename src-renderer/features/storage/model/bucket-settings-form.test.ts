import { describe, expect, it } from 'vitest';
import { corsSummary, lifecycleProblem, lifecycleSummary, newBucketNameProblem, parseList } from './bucket-settings-form';

const rule = { name: 'r', prefix: 'tmp/', toInfrequentAfterDays: 0, toArchiveAfterDays: 0, deleteAfterDays: 0 };

describe('bucket settings forms', () => {
  it('checks a new bucket name as Kodo does', () => {
    expect(newBucketNameProblem('ab')).toBe('a bucket name has 3-63 characters');
    expect(newBucketNameProblem('my photos')).toBe('letters, digits, - and _ only');
    expect(newBucketNameProblem('')).toBe('type a name');
    expect(newBucketNameProblem('photos-2026_a')).toBeUndefined();
  });

  it('reads lists typed one per line or with commas', () => {
    expect(parseList(' https://a.com\nhttps://b.com, https://a.com\n\n')).toEqual(['https://a.com', 'https://b.com']);
    expect(parseList('')).toEqual([]);
  });

  it('summarises and checks lifecycle rules', () => {
    expect(lifecycleSummary({ ...rule, toInfrequentAfterDays: 30, deleteAfterDays: 365 })).toBe(
      'tmp/ · to Infrequent after 30 days · deleted after 365 days',
    );
    expect(lifecycleSummary({ ...rule, prefix: '' })).toBe('every object · no action');
    expect(lifecycleProblem(rule)).toBe('give at least one number of days');
    expect(lifecycleProblem({ ...rule, name: 'bad name' })).toMatch(/letters, digits/);
    expect(lifecycleProblem({ ...rule, toInfrequentAfterDays: 30, toArchiveAfterDays: 30 })).toBe('Archive must come after Infrequent');
    expect(lifecycleProblem({ ...rule, toArchiveAfterDays: 60, deleteAfterDays: 30 })).toBe(
      'deletion must come after the storage class changes',
    );
    expect(lifecycleProblem({ ...rule, deleteAfterDays: 7 })).toBeUndefined();
  });

  it('summarises CORS rules', () => {
    expect(
      corsSummary({
        allowedOrigins: ['https://a.com'],
        allowedMethods: ['GET', 'HEAD'],
        allowedHeaders: [],
        exposedHeaders: [],
        maxAgeSeconds: 600,
      }),
    ).toBe('GET, HEAD from https://a.com (max-age 600 s)');
  });
});
