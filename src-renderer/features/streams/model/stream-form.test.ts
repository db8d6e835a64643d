import { describe, expect, it } from 'vitest';
import { streamFormSchema, type StreamFormValues } from '@shared/contract/relay';
import { dropMove, initialValues, nameProblem, sourceLabel, toSave } from './stream-form';

describe('initialValues', () => {
  it.each([
    ['a new stream', undefined, { name: '', sources: [{ url: '' }] }],
    [
      'a stream with two sources, in order',
      { name: 'door', sources: ['rtsp://***@cam/main', 'ffmpeg:door#audio=opus'] },
      { name: 'door', sources: [{ url: 'rtsp://***@cam/main' }, { url: 'ffmpeg:door#audio=opus' }] },
    ],
    ['a publish target (no source)', { name: 'push', sources: [] }, { name: 'push', sources: [{ url: '' }] }],
  ])('%s', (_case, editing, expected) => {
    expect(initialValues(editing)).toEqual(expected);
  });
});

describe('nameProblem', () => {
  it.each([
    ['yard', ['door', 'yard'], 'door', 'a stream named yard exists already: choose another name'],
    ['yard', ['door', 'yard'], undefined, 'a stream named yard exists already: choose another name, or edit that stream'],
    ['door', ['door', 'yard'], 'door', undefined],
    ['porch', ['door', 'yard'], 'door', undefined],
  ])('%s among %j (editing %s)', (name, existing, original, expected) => {
    expect(nameProblem(name, existing, original)).toBe(expected);
  });
});

describe('toSave', () => {
  const values = (name: string, ...urls: string[]): StreamFormValues => ({ name, sources: urls.map((url) => ({ url })) });
  it.each([
    ['adds', values('door', ' rtsp://cam/1 '), undefined, { name: 'door', sources: ['rtsp://cam/1'] }],
    ['edits in the listed order', values('door', 'b', 'a'), 'door', { name: 'door', sources: ['b', 'a'] }],
    [
      'renames',
      values('porch', 'rtsp://cam/1', 'ffmpeg:porch#audio=opus'),
      'door',
      { name: 'door', newName: 'porch', sources: ['rtsp://cam/1', 'ffmpeg:porch#audio=opus'] },
    ],
  ])('%s', (_case, form, original, expected) => {
    expect(toSave(form, original)).toEqual(expected);
  });
});

describe('dropMove', () => {
  it.each([
    [['a', 'b', 'c'], 'c', 'a', { from: 2, to: 0 }],
    [['a', 'b', 'c'], 'a', 'b', { from: 0, to: 1 }],
    [['a', 'b', 'c'], 'a', 'a', undefined],
    [['a', 'b', 'c'], 'a', undefined, undefined],
    [['a', 'b', 'c'], 'x', 'a', undefined],
  ])('%j: %s over %s', (ids, active, over, expected) => {
    expect(dropMove(ids, active, over)).toEqual(expected);
  });
  it('labels sources from 1', () => expect(sourceLabel(1)).toBe('Source 2'));
});

describe('streamFormSchema', () => {
  const parse = (sources: string[], kept: string[] = []) =>
    streamFormSchema(kept).safeParse({ name: 'door', sources: sources.map((url) => ({ url })) });
  const messages = (result: ReturnType<typeof parse>) => (result.success ? [] : result.error.issues.map((issue) => issue.message));
  it.each([
    ['two sources', ['rtsp://cam/1', 'ffmpeg:door#audio=opus'], [], []],
    ['no source', [], [], ['a stream needs at least one source']],
    ['an empty source', ['rtsp://cam/1', ' '], [], ['a stream needs a source URL']],
    ['the same source twice', ['rtsp://cam/1', 'rtsp://cam/1 '], [], ['the same source is listed twice']],
    ['a masked login typed by hand', ['rtsp://***@cam/1'], [], ['type the login again: saved passwords are never shown in the console']],
    ['a saved source left as shown', ['rtsp://***@cam/1'], ['rtsp://***@cam/1'], []],
  ])('%s', (_case, sources, kept, expected) => {
    expect(messages(parse(sources, kept))).toEqual(expected);
  });
});
