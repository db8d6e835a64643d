import { describe, expect, it } from 'vitest';
import { prettyJson, previewKind } from './preview-kind';

describe('preview kind', () => {
  it.each([
    ['image/png', 'a.png', 'image'],
    ['image/jpeg; charset=binary', 'a', 'image'],
    ['image/svg+xml', 'logo.svg', 'none'],
    ['video/mp4', 'clip.mp4', 'video'],
    ['text/markdown', 'README', 'markdown'],
    ['application/octet-stream', 'notes.md', 'markdown'],
    ['application/json', 'x', 'json'],
    ['text/plain', 'data.json', 'json'],
    ['text/plain', 'a.txt', 'text'],
    ['text/html', 'index.html', 'text'],
    ['application/octet-stream', 'app.log', 'text'],
    ['application/zip', 'a.zip', 'none'],
  ])('%s %s → %s', (mime, key, kind) => {
    expect(previewKind(mime, key)).toBe(kind);
  });

  it('indents JSON only when all of it was read and parses', () => {
    expect(prettyJson('{"a":[1,2]}', true)).toEqual({ text: '{\n  "a": [\n    1,\n    2\n  ]\n}', formatted: true });
    expect(prettyJson('{"a":[1,', false)).toEqual({ text: '{"a":[1,', formatted: false });
    expect(prettyJson('not json', true)).toEqual({ text: 'not json', formatted: false });
  });
});
