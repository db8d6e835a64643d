import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { GraphStore } from './graph-store';

/** The key the emulator signs tokens with (RS256, as Entra ID), published in its JWKS. */
export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Key id in token headers and the JWKS: the SHA-1 thumbprint of the public key, base64url. */
  kid: string;
  /** The public key as a JWK entry of `/discovery/v2.0/keys`. */
  jwk: Record<string, unknown>;
}

/**
 * Made on first start and kept in the emulator's database, so tokens survive a restart. Made off
 * the event loop: an RSA key takes about 200 ms, which the console's first page load would wait.
 */
export async function signingKeyOf(store: GraphStore): Promise<SigningKey> {
  let pem = store.meta('rsa_signing_key');
  if (!pem) {
    const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    store.setMeta('rsa_signing_key', pem);
  }
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const kid = createHash('sha1')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
  const { n, e } = publicKey.export({ format: 'jwk' });
  return { privateKey, publicKey, kid, jwk: { kty: 'RSA', use: 'sig', kid, x5t: kid, n, e } };
}
