import { createHash, randomBytes } from 'node:crypto';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Parses `Digest realm="x", nonce="y", ...` or `Basic realm="x"` challenges. */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } {
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const params: Record<string, string> = {};
  for (const match of rest.join(' ').matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) params[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? '';
  return { scheme: scheme.toLowerCase(), params };
}

/** The Authorization header answering an RTSP server's challenge (RFC 2617, as cameras use it). */
export function authorizationFor(challenge: string, method: string, uri: string, username: string, password: string): string {
  const { scheme, params } = parseChallenge(challenge);
  if (scheme === 'basic') return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const realm = params.realm ?? '';
  const nonce = params.nonce ?? '';
  const ha1 = md5(`${username}:${realm}:${password}`);
  const ha2 = md5(`${method}:${uri}`);
  if (params.qop?.split(',').map((q) => q.trim()).includes('auth')) {
    const cnonce = randomBytes(8).toString('hex');
    const nc = '00000001';
    const response = md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`);
    return `Digest username="${username}", realm="${realm}", nonce="${nonce}", uri="${uri}", qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}"${params.opaque ? `, opaque="${params.opaque}"` : ''}`;
  }
  const response = md5(`${ha1}:${nonce}:${ha2}`);
  return `Digest username="${username}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}"${params.opaque ? `, opaque="${params.opaque}"` : ''}`;
}
