/**
 * Headers for a user's object served on the console's own origin (a preview, a downloaded file):
 * the browser must not guess another type, and the response, opened on its own, runs nothing.
 */
export const UNTRUSTED_CONTENT_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'",
};
