import { describe, expect, it } from 'vitest';
import { err, ok } from '../../src-shared/contract/result';
import { pageWithColorScheme, storedColorScheme } from './index-page';

const PAGE =
  '<!doctype html>\n<html lang="en">\n<head><meta name="color-scheme" content="light dark" /><meta name="relay-console-color-scheme" content="" /></head></html>';

describe('pageWithColorScheme', () => {
  it.each([
    ['system', '<html lang="en">', 'content="light dark"', 'content="system"'],
    ['dark', '<html lang="en" data-mantine-color-scheme="dark">', '<meta name="color-scheme" content="dark">', 'content="dark"'],
    ['light', '<html lang="en" data-mantine-color-scheme="light">', '<meta name="color-scheme" content="light">', 'content="light"'],
  ] as const)('%s', (scheme, html, colorScheme, meta) => {
    const page = pageWithColorScheme(PAGE, scheme);
    expect(page).toContain(html);
    expect(page).toContain(colorScheme);
    expect(page).toContain(`<meta name="relay-console-color-scheme" ${meta}>`);
  });

  it('leaves a page without the tags as it was, apart from the html attribute', () => {
    expect(pageWithColorScheme('<html><body></body></html>', 'dark')).toBe('<html data-mantine-color-scheme="dark"><body></body></html>');
    expect(pageWithColorScheme('<p>not built</p>', 'dark')).toBe('<p>not built</p>');
  });
});

describe('storedColorScheme', () => {
  it.each([
    ['the stored choice', ok({ appearance: { colorScheme: 'dark' } }), 'dark'],
    ['system when the service is not bound yet', err('not_found', 'no method preferences.get'), 'system'],
    ['system when the answer has no theme', ok({}), 'system'],
    ['system when the answer is not a theme', ok({ appearance: { colorScheme: 'sepia' } }), 'system'],
  ] as const)('%s', async (_what, result, expected) => {
    expect(await storedColorScheme({ call: async () => result })).toBe(expected);
  });
});
