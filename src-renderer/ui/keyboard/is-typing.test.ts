import { describe, expect, it } from 'vitest';
import { isTyping } from './is-typing';

describe('isTyping', () => {
  it.each([
    ['a text input', { tagName: 'INPUT', type: 'text' }, true],
    ['an input with no type', { tagName: 'INPUT', type: '' }, true],
    ['a search input', { tagName: 'INPUT', type: 'search' }, true],
    ['a number input', { tagName: 'INPUT', type: 'number' }, true],
    ['a text area', { tagName: 'TEXTAREA' }, true],
    ['a select', { tagName: 'SELECT' }, true],
    ['editable content (the config editor)', { tagName: 'DIV', isContentEditable: true }, true],
    ['a checkbox', { tagName: 'INPUT', type: 'checkbox' }, false],
    ['a radio (the theme switch)', { tagName: 'INPUT', type: 'radio' }, false],
    ['a range slider', { tagName: 'INPUT', type: 'range' }, false],
    ['a button', { tagName: 'BUTTON' }, false],
    ['a focused tile', { tagName: 'DIV', isContentEditable: false }, false],
    ['the page body', { tagName: 'BODY' }, false],
    ['nothing', null, false],
    ['the window', {}, false],
  ])('%s: %s', (_what, target, expected) => {
    expect(isTyping(target)).toBe(expected);
  });
});
