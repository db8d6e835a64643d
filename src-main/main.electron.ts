import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, safeStorage, session, shell } from 'electron';
import { appRootFrom, readAppVersion } from './engine/app-root';
import { runEngine } from './engine/lifecycle';
import { engineModules } from './engine/modules';
import { bindIpcTransport } from './transport/ipc-transport';
import { isConsoleUrl, registerAppScheme, serveRenderer } from './electron/app-protocol';
import { createWindowFactory } from './electron/window-factory';
import { lockPermissions } from './electron/permissions';

/** The desktop app: the same engine as headless mode, its console in a sandboxed window. */
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  await app.whenReady();
  const appRoot = appRootFrom(import.meta.url);
  const rendererDir = join(appRoot, 'dist', 'renderer');
  const configArg = process.argv.indexOf('--config');

  const lifecycle = await runEngine(
    {
      runtime: 'electron',
      version: readAppVersion(appRoot),
      configPath: configArg > 0 ? process.argv[configArg + 1] : undefined,
      // A tenant's sign-in page opens in the user's browser; the token cache key goes to the OS keychain.
      modules: engineModules({ rendererDir, sessionToken: randomBytes(32).toString('hex') }, { openBrowser: (url) => shell.openExternal(url), safeStorage }),
    },
    (code) => app.exit(code),
  );
  const engine = lifecycle.current();

  lockPermissions(session.defaultSession);
  serveRenderer(rendererDir, engine.url);
  const unbindIpc = bindIpcTransport({
    ipcMain,
    // Services are looked up on every call, so a restarted engine is reached too.
    host: {
      call: (service, method, input) => lifecycle.current().services.call(service, method, input),
      subscribe: (service, event, listener) => lifecycle.current().services.subscribe(service, event, listener),
    },
    isTrustedUrl: isConsoleUrl,
    logger: engine.logger.child('ipc'),
  });

  const createWindow = createWindowFactory({
    preloadPath: join(appRoot, 'dist', 'main', 'preload.cjs'),
    iconPath: join(appRoot, 'assets', 'icon.png'),
  });
  let mainWindow = createWindow({ kind: 'main' });

  app.on('second-instance', () => {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow({ kind: 'main' });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quitting = true;
    unbindIpc();
    void lifecycle.stop().then(() => app.exit(0));
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
}
