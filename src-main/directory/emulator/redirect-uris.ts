/** What an app without configured redirect addresses accepts: a desktop app's loopback, as registered for msal's interactive sign-in. */
export const DEFAULT_REDIRECT_URIS = ['http://localhost', 'http://127.0.0.1', 'http://[::1]'];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * Whether the app may be sent back to this address: one of its registered addresses exactly,
 * or, for a registered http loopback address, the same host and path on any port (Entra's rule
 * for desktop apps, whose local listener gets a free port each time).
 */
export function redirectAllowed(app: { redirectUris: readonly string[] }, uri: string): boolean {
  const asked = parse(uri);
  if (!asked || asked.hash !== '') return false;
  return app.redirectUris.some((registered) => {
    if (registered === uri) return true;
    const known = parse(registered);
    if (!known || known.protocol !== 'http:' || !LOOPBACK.has(known.hostname)) return false;
    return (
      asked.protocol === 'http:' && asked.hostname === known.hostname && asked.pathname === known.pathname && asked.search === known.search
    );
  });
}
