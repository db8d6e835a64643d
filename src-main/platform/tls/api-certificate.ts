import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ApiTlsSettings } from '../config/app-settings';
import type { Logger } from '../logger';
import { ensureLocalCertificate } from './local-certificate';

const isPem = (text: string) => text.includes('\n');

/**
 * The certificate of `api.tls_listen`. As go2rtc reads `tls_cert`/`tls_key`: text with a line
 * break is the PEM itself, anything else the path of a PEM file (relative to the config file).
 * Without them a local CA in `<data_dir>/api/tls` makes one for this machine's names and the log
 * says where the CA is, so a browser or client can be told to trust it.
 */
export async function apiCertificate(
  tls: ApiTlsSettings,
  options: { dataDir: string; logger: Logger },
): Promise<{ cert: string; key: string }> {
  const read = async (value: string, what: string): Promise<string> => {
    if (isPem(value)) return value;
    const path = isAbsolute(value) ? value : resolve(tls.baseDir, value);
    return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new Error(`api.${what}: cannot read ${path} (${error.code ?? error.message}); give the PEM text or the path of a PEM file`);
    });
  };
  if (tls.cert !== undefined && tls.key !== undefined)
    return { cert: await read(tls.cert, 'tls_cert'), key: await read(tls.key, 'tls_key') };
  const names = [hostname(), ...(tls.host !== '0.0.0.0' && tls.host !== '::' ? [tls.host] : [])];
  const made = await ensureLocalCertificate({ dir: join(options.dataDir, 'api', 'tls'), names, label: 'Relay Console API' });
  options.logger.info(
    made.created
      ? 'https: a local CA and certificate were made for api.tls_listen; trust the CA in the browser'
      : 'https: local certificate in use for api.tls_listen',
    { ca: made.caPath },
  );
  return { cert: made.cert, key: made.key };
}
