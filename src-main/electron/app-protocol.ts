import { protocol } from 'electron';
import { consoleCsp, SECURITY_HEADERS } from '../console/content-security-policy';
import { readStaticFile } from '../console/static-files';

/** The renderer's origin in the desktop window. */
const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://console`;

/** Must run before `app.whenReady()`: makes app:// a secure, standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ]);
}

/**
 * Serves dist/renderer under app://console/ with the console's CSP. `indexPage` rewrites the
 * index page as it is served (the stored colour theme, so the window paints in it at once).
 */
export function serveRenderer(
  rendererDir: string,
  apiOrigin: string,
  indexPage: (html: string) => Promise<string> = async (html) => html,
): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'console') return new Response('not found', { status: 404 });
    const path = url.pathname === '/' ? '/index.html' : url.pathname;
    const file = await readStaticFile(rendererDir, path);
    if (!file) return new Response('not found', { status: 404 });
    const body = path === '/index.html' ? Buffer.from(await indexPage(file.body.toString('utf8'))) : file.body;
    return new Response(new Uint8Array(body), {
      headers: { ...SECURITY_HEADERS, 'Content-Security-Policy': consoleCsp(apiOrigin), 'Content-Type': file.type },
    });
  });
}

export const isConsoleUrl = (url: string): boolean => url.startsWith(`${APP_ORIGIN}/`);
