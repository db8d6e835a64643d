/**
 * Which links the desktop window may hand to the user's browser (`shell.openExternal`). The OS
 * opens whatever it is given with the program registered for the scheme (file:, smb:, ms-*:,
 * custom handlers), so a compromised or tricked renderer must not choose: only https pages of
 * the services the console manages, and the console's own API address (stream URLs such as
 * /api/stream.mp4?src=cam to open in a player), are let through.
 */
const EXTERNAL_ORIGINS: readonly string[] = [
  // Qiniu Kodo: the cloud console and its documentation.
  'https://portal.qiniu.com',
  'https://developer.qiniu.com',
  // Microsoft Graph / Entra: the admin centre, app registrations and documentation.
  'https://entra.microsoft.com',
  'https://portal.azure.com',
  'https://learn.microsoft.com',
];

/**
 * True when `url` may open in the user's browser: its origin (scheme, host and port together)
 * is one of `EXTERNAL_ORIGINS` or the console's API origin, and it carries no credentials.
 */
export function mayOpenExternally(url: string, apiOrigin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '') return false;
  return parsed.origin === new URL(apiOrigin).origin || EXTERNAL_ORIGINS.includes(parsed.origin);
}
