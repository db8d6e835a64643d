import { BrowserWindow, dialog, shell } from 'electron';
import { APP_ORIGIN, isConsoleUrl } from './app-protocol';
import { mayOpenExternally } from './external-links';
import { askBeforeDiscardingEdits } from './unsaved-changes-prompt';

export type WindowKind =
  { kind: 'main' } | { kind: 'camera'; stream: string; bounds?: { x: number; y: number; width: number; height: number } };

/**
 * Every console window is made here, with the same locked-down web preferences: sandboxed
 * renderer, context isolation, no Node, navigation kept inside the console, new windows refused.
 * A link the console means to open outside (see external-links.ts) opens in the user's browser;
 * any other URL a renderer asks for goes nowhere.
 */
export function createWindowFactory(options: { preloadPath: string; iconPath: string; apiOrigin: () => string }) {
  const openOutside = (url: string): void => {
    if (mayOpenExternally(url, options.apiOrigin())) void shell.openExternal(url);
  };
  return (spec: WindowKind): BrowserWindow => {
    const camera = spec.kind === 'camera';
    const window = new BrowserWindow({
      width: camera ? 960 : 1280,
      height: camera ? 560 : 820,
      ...(camera && spec.bounds ? spec.bounds : {}),
      minWidth: 480,
      minHeight: 320,
      title: camera ? `${spec.stream} · Relay Console` : 'Relay Console',
      icon: options.iconPath,
      show: false,
      backgroundColor: '#0d1117',
      webPreferences: {
        preload: options.preloadPath,
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        spellcheck: false,
      },
    });
    window.once('ready-to-show', () => window.show());

    window.webContents.on('will-navigate', (event, url) => {
      if (isConsoleUrl(url)) return;
      event.preventDefault();
      openOutside(url);
    });
    window.webContents.on('will-attach-webview', (event) => event.preventDefault());
    askBeforeDiscardingEdits(window, (_parent, options) => dialog.showMessageBoxSync(window, options));
    window.webContents.setWindowOpenHandler(({ url }) => {
      openOutside(url);
      return { action: 'deny' };
    });

    const hash = camera ? `#/camera/${encodeURIComponent(spec.stream)}` : '#/live';
    void window.loadURL(`${APP_ORIGIN}/index.html${hash}`);
    return window;
  };
}
