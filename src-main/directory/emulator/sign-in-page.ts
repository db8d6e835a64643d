import type { ServerResponse } from 'node:http';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE =
  'body{font:16px system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;font:inherit}button{margin-top:1rem;padding:.5rem 1.2rem;font:inherit}.error{color:#a00}ul{padding-left:1.2rem}';

/** A page of the emulator's sign-in service: title, then the body (already escaped). */
export function signInDocument(title: string, body: string, script?: { nonce: string; code: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} - Graph emulator</title><style>${STYLE}</style></head>
<body>${body}${script ? `<script nonce="${script.nonce}">${script.code}</script>` : ''}</body></html>`;
}

/** A message above the form: an error for a person to fix, or a status. */
export const notice = (message: string | null, error: boolean) =>
  message ? `<p role="${error ? 'alert' : 'status'}" class="${error ? 'error' : ''}">${escapeHtml(message)}</p>` : '';

/**
 * Sends a sign-in page. Framing is refused and scripts run only with the page's nonce: the page
 * takes a password.
 */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  options: { scriptNonce?: string; formAction?: string; headers?: Record<string, string | string[]> } = {},
): void {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `form-action ${options.formAction ?? "'self'"}`,
    "frame-ancestors 'none'",
    ...(options.scriptNonce ? [`script-src 'nonce-${options.scriptNonce}'`] : []),
  ].join('; ');
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': csp,
    'X-Frame-Options': 'DENY',
    ...options.headers,
  });
  res.end(html);
}
