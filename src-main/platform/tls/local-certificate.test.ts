import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listen } from '../listen';
import { createDualProtocolServer, requestOrigin } from './dual-protocol-server';
import { ensureLocalCertificate } from './local-certificate';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-cert-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function httpsGet(port: number, ca: string, servername: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/x', ca, servername, headers: { Host: `${servername}:${port}` } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local certificate', () => {
  it('makes a CA and a server certificate for the local names, keeps them, and remakes them when the names change', async () => {
    const first = await ensureLocalCertificate({ dir, label: 'Test service' });
    expect(first.created).toBe(true);
    const ca = new X509Certificate(await readFile(first.caPath));
    const server = new X509Certificate(first.cert);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(ca.ca).toBe(true);
    // The CA's private key is not kept: only the server key is on disk, readable by its owner alone.
    expect((await stat(join(dir, 'server-key.pem'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, 'ca-key.pem')).catch(() => null)).toBeNull();

    const again = await ensureLocalCertificate({ dir, label: 'Test service' });
    expect(again).toMatchObject({ created: false, cert: first.cert, key: first.key });
    const renamed = await ensureLocalCertificate({ dir, label: 'Test service', names: ['kodo.lan'] });
    expect(renamed.created).toBe(true);
    expect(new X509Certificate(renamed.cert).subjectAltName).toContain('DNS:kodo.lan');
  });

  it('serves http and https on one port; a client trusting the CA connects, and sees its own scheme in links', async () => {
    const made = await ensureLocalCertificate({ dir, label: 'Test service' });
    const dual = createDualProtocolServer((req, res) => res.end(requestOrigin(req, 'http://fallback')), { cert: made.cert, key: made.key });
    const port = await listen(dual.server, 0, '127.0.0.1');
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/x`)).text()).toBe(`http://127.0.0.1:${port}`);
      const ca = await readFile(made.caPath, 'utf8');
      expect(await httpsGet(port, ca, 'localhost')).toBe(`https://localhost:${port}`);
      // Not trusted without the CA.
      await expect(httpsGet(port, '', 'localhost')).rejects.toThrow(/self-signed|unable to verify|certificate/);
    } finally {
      dual.closeAllConnections();
      await dual.close();
    }
  });
});
