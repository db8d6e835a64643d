import { webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write';
// Types only: the library itself is loaded when a certificate is made (it is large).
import type { X509CertificateGenerator } from '@peculiar/x509';

export interface LocalCertificate {
  /** PEM of the server certificate followed by the CA's, as a TLS server sends them. */
  cert: string;
  key: string;
  /** The CA to trust (NODE_EXTRA_CA_CERTS, a browser's authorities). */
  caPath: string;
  /** True when this start made them (the log says where the CA is). */
  created: boolean;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY = 86_400_000;
/** Browsers refuse server certificates valid for longer than 398 days. */
const SERVER_DAYS = 397;
/** Renewed this long before it expires. */
const RENEW_DAYS = 30;
const LOCAL_NAMES = ['localhost', '127.0.0.1', '::1'];

/** An ECDSA key pair, as the certificate library takes it (main has Node's WebCrypto types, not the DOM's). */
type KeyPair = Parameters<typeof X509CertificateGenerator.createSelfSigned>[0]['keys'];

/**
 * @types/node's key usages name some (ML-KEM's) that the library's WebCrypto types do not yet,
 * for what is the same object at run time.
 */
const generateKeyPair = async (extractable: boolean): Promise<KeyPair> =>
  (await webcrypto.subtle.generateKey(ALGORITHM, extractable, ['sign', 'verify'])) as unknown as KeyPair;

const files = (dir: string) => ({ ca: join(dir, 'ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server-key.pem') });

/** Whether a certificate covers exactly these names (DNS names and IP addresses). */
function coversExactly(server: NodeX509, names: string[]): boolean {
  const entries = (server.subjectAltName ?? '').split(', ').filter(Boolean);
  return (
    entries.length === names.length &&
    names.every((name) => (isIP(name) ? server.checkIP(name) !== undefined : server.checkHost(name) !== undefined))
  );
}

async function readExisting(dir: string, names: string[], now: number): Promise<Omit<LocalCertificate, 'created'> | null> {
  const paths = files(dir);
  try {
    const [ca, cert, key] = await Promise.all([readFile(paths.ca, 'utf8'), readFile(paths.cert, 'utf8'), readFile(paths.key, 'utf8')]);
    const server = new NodeX509(cert);
    const current = Date.parse(server.validTo) - now > RENEW_DAYS * DAY && coversExactly(server, names);
    return current && server.checkIssued(new NodeX509(ca)) ? { cert: `${cert}${ca}`, key, caPath: paths.ca } : null;
  } catch {
    return null;
  }
}

/**
 * A TLS certificate for a local service (the emulators, the relay API) when none is configured:
 * a CA made for it and a server certificate that CA signs for this machine's names, kept in
 * `dir`. The CA's private key is never written: it signs once and is gone, so trusting the CA
 * trusts this one certificate and nothing anyone could sign later. When the names change or the
 * certificate nears its end, both are made again (the CA file keeps its path).
 */
export async function ensureLocalCertificate(options: {
  dir: string;
  names?: string[];
  label: string;
  now?: () => number;
}): Promise<LocalCertificate> {
  // Loaded only to make a certificate (about 10 MB with its dependencies), not at every start.
  const x509 = await import('@peculiar/x509');
  const now = options.now?.() ?? Date.now();
  const names = [...new Set([...LOCAL_NAMES, ...(options.names ?? [])])];
  const existing = await readExisting(options.dir, names, now);
  if (existing) return { ...existing, created: false };

  // The library is typed with the DOM's Crypto, which Node's webcrypto implements.
  x509.cryptoProvider.set(webcrypto as unknown as ReturnType<typeof x509.cryptoProvider.get>);
  const notBefore = new Date(now - DAY);
  const caKeys = await generateKeyPair(false);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${options.label} local CA, O=Relay Console`,
    notBefore,
    notAfter: new Date(now + (SERVER_DAYS + 1) * DAY),
    keys: caKeys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const serverKeys = await generateKeyPair(true);
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${options.label}`,
    issuer: ca.subject,
    notBefore,
    notAfter: new Date(now + SERVER_DAYS * DAY),
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        names.map((name) => ({ type: isIP(name) ? ('ip' as const) : ('dns' as const), value: name })),
      ),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  const caPem = `${ca.toString('pem')}\n`;
  const certPem = `${server.toString('pem')}\n`;

  const paths = files(options.dir);
  await mkdir(options.dir, { recursive: true });
  await writeFileAtomic(paths.key, key);
  await writeFileAtomic(paths.cert, certPem, 0o644);
  await writeFileAtomic(paths.ca, caPem, 0o644);
  return { cert: `${certPem}${caPem}`, key, caPath: paths.ca, created: true };
}

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f; // a positive serial
  return Buffer.from(bytes).toString('hex');
}
