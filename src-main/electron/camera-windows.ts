import type { BrowserWindow } from 'electron';
import type { CameraWindowHost } from '../preferences/preferences-module';
import type { Popout } from '../../src-shared/contract/preferences';
import type { WindowKind } from './window-factory';

type CreateWindow = (spec: WindowKind) => BrowserWindow;

/**
 * Camera pop-outs as desktop windows: one per stream (asking again focuses it), bounds reported
 * as the user moves and resizes it, closing forgets it, but quitting the app does not (so the
 * pop-outs come back on the next start). Pop-outs asked for before the main window exists wait.
 */
export function createCameraWindowHost(
  factory: () => CreateWindow | undefined,
  quitting: () => boolean,
): CameraWindowHost & { ready(): void } {
  const open = new Map<string, BrowserWindow>();
  const waiting: Array<() => void> = [];
  let restored = false;

  const openCamera: CameraWindowHost['openCamera'] = (stream, bounds, events) => {
    const create = factory();
    if (!create) {
      waiting.push(() => openCamera(stream, bounds, events));
      return;
    }
    const existing = open.get(stream);
    if (existing && !existing.isDestroyed()) {
      existing.focus();
      return;
    }
    const window = create({ kind: 'camera', stream, bounds });
    open.set(stream, window);
    let timer: NodeJS.Timeout | undefined;
    const report = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!window.isDestroyed()) events.onBounds(window.getBounds());
      }, 300);
    };
    window.on('move', report);
    window.on('resize', report);
    window.on('closed', () => {
      clearTimeout(timer);
      open.delete(stream);
      if (!quitting()) events.onClosed();
    });
  };

  return {
    openCamera,
    restore(popouts: readonly Popout[], reopen: (popout: Popout) => void) {
      // Once per app run: an engine restart (a config save) must not open a second set.
      if (restored) return;
      restored = true;
      popouts.forEach(reopen);
    },
    ready() {
      for (const run of waiting.splice(0)) run();
    },
  };
}
