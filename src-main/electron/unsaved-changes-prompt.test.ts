import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { askBeforeDiscardingEdits, type ShowMessageBox } from './unsaved-changes-prompt';

function windowAnswering(choice: number) {
  const webContents = new EventEmitter();
  const asked: string[] = [];
  const show: ShowMessageBox = (_window, options) => {
    asked.push(`${options.message} [${options.buttons?.join(' | ')}]`);
    return choice;
  };
  askBeforeDiscardingEdits({ webContents } as never, show);
  const unload = () => {
    let prevented = false;
    webContents.emit('will-prevent-unload', { preventDefault: () => (prevented = true) });
    return prevented;
  };
  return { asked, unload };
}

describe('askBeforeDiscardingEdits', () => {
  it('lets the window close or reload when the user chooses to leave', () => {
    const window = windowAnswering(0);
    expect(window.unload()).toBe(true);
    expect(window.asked).toEqual(['Leave without saving? [Leave without saving | Stay]']);
  });

  it('keeps the window and its edits when the user stays', () => {
    const window = windowAnswering(1);
    expect(window.unload()).toBe(false);
    expect(window.asked).toHaveLength(1);
  });
});
