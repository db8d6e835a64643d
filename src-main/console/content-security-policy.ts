/**
 * The console's CSP, the same in the Electron window and in a browser: only the console's own
 * scripts; media and images from itself (blob: for MSE/HLS players); no framing, no plugins.
 */
export function consoleCsp(apiOrigin?: string): string {
  // In the Electron window the page is app://console and media comes from the relay API
  // origin; in a browser the page and the API share one origin ('self').
  const api = apiOrigin ? ` ${apiOrigin}` : '';
  const apiSocket = apiOrigin ? ` ${apiOrigin.replace(/^http/, 'ws')}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${api}`,
    `media-src 'self' blob:${api}`,
    `connect-src 'self'${api}${apiSocket}`,
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': consoleCsp(),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
