import { createHash, randomBytes } from 'node:crypto';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Parses `Digest realm="x", nonce="y", ...` or `Basic realm="x"` challenges. */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } {
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const params: Record<string, string> = {};
  for (const match of rest.join(' ').matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g))
    params[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? '';
  return { scheme: scheme.toLowerCase(), params };
}

/** The `response` value of RFC 2617 Digest, with or without qop=auth. */
export function digestResponse(p: {
  username: string;
  password: string;
  realm: string;
  nonce: string;
  method: string;
  uri: string;
  qop?: string;
  nc?: string;
  cnonce?: string;
}): string {
  const ha1 = md5(`${p.username}:${p.realm}:${p.password}`);
  const ha2 = md5(`${p.method}:${p.uri}`);
  return p.qop === 'auth' ? md5(`${ha1}:${p.nonce}:${p.nc ?? ''}:${p.cnonce ?? ''}:auth:${ha2}`) : md5(`${ha1}:${p.nonce}:${ha2}`);
}

/** The Authorization header answering an RTSP server's challenge (RFC 2617, as cameras use it). */
export function authorizationFor(challenge: string, method: string, uri: string, username: string, password: string): string {
  const { scheme, params } = parseChallenge(challenge);
  if (scheme === 'basic') return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const realm = params.realm ?? '';
  const nonce = params.nonce ?? '';
  if (
    params.qop
      ?.split(',')
      .map((q) => q.trim())
      .includes('auth')
  ) {
    const cnonce = randomBytes(8).toString('hex');
    const nc = '00000001';
    const response = digestResponse({ username, password, realm, nonce, method, uri, qop: 'auth', nc, cnonce });
    return `Digest username="${username}", realm="${realm}", nonce="${nonce}", uri="${uri}", qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}"${params.opaque ? `, opaque="${params.opaque}"` : ''}`;
  }
  const response = digestResponse({ username, password, realm, nonce, method, uri });
  return `Digest username="${username}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}"${params.opaque ? `, opaque="${params.opaque}"` : ''}`;
}
