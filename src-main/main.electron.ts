import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session, shell } from 'electron';
import { appRootFrom, readAppVersion } from './engine/app-root';
import { runEngine } from './engine/lifecycle';
import { configSchemas, engineModules } from './engine/modules';
import { listenProblem, parseListen } from './platform/config/app-settings';
import { parseCommandLine } from './cli-options.mjs';
import { bindIpcTransport } from './transport/ipc-transport';
import { isConsoleUrl, registerAppScheme, serveRenderer } from './electron/app-protocol';
import { pageWithColorScheme, storedColorScheme } from './console/index-page';
import { createWindowFactory } from './electron/window-factory';
import { createCameraWindowHost } from './electron/camera-windows';
import { lockPermissions } from './electron/permissions';

/** The desktop app: the same engine as headless mode, its console in a sandboxed window. */
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  start().catch((error: unknown) => {
    // The same sentence the headless runtime prints (a busy port names the setting to change).
    const message = (error as Error).message;
    console.error(`Relay Console could not start: ${message}`);
    dialog.showErrorBox('Relay Console could not start', message);
    app.exit(1);
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  const appRoot = appRootFrom(import.meta.url);
  const rendererDir = join(appRoot, 'dist', 'renderer');
  // Chromium's own switches share the command line, so unknown options are left alone here.
  const args = parseCommandLine(process.argv.slice(1), { strict: false });
  const listenIsWrong = args.listen === undefined ? undefined : listenProblem(args.listen);
  if (listenIsWrong) throw new Error(`--listen ${args.listen}: ${listenIsWrong}`);

  // Camera pop-outs are made by the window factory once the app is up; the engine asks for them.
  const made: { createWindow?: ReturnType<typeof createWindowFactory> } = {};
  const cameraWindows = createCameraWindowHost(
    () => made.createWindow,
    () => quitting,
  );
  let quitting = false;

  const lifecycle = await runEngine(
    {
      runtime: 'electron',
      version: readAppVersion(appRoot),
      configPath: args.config ? resolve(args.config) : undefined,
      listen: args.listen ? parseListen(args.listen) : undefined,
      configSchemas,
      // A tenant's sign-in page opens in the user's browser; the token cache key goes to the OS keychain.
      modules: engineModules(
        { rendererDir, sessionToken: randomBytes(32).toString('hex') },
        { openBrowser: (url) => shell.openExternal(url), safeStorage, windows: cameraWindows },
      ),
    },
    (code) => app.exit(code),
  );
  const engine = lifecycle.current();

  lockPermissions(session.defaultSession);
  serveRenderer(rendererDir, engine.url, async (html) => pageWithColorScheme(html, await storedColorScheme(lifecycle.current().services)));
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
    apiOrigin: () => lifecycle.current().url,
  });
  made.createWindow = createWindow;
  let mainWindow = createWindow({ kind: 'main' });
  cameraWindows.ready();

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

  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quitting = true;
    unbindIpc();
    void lifecycle.stop().then(() => app.exit(0));
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
}
