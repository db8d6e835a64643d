import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Logger } from '../logger';
import { ensureLocalCertificate } from './local-certificate';

/** `tls:` of an emulator section: https on the same port as http. */
export const tlsSettingsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** A certificate of your own (PEM, chain included) and its key; without them a local CA makes one. */
    cert: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
    /** Names besides localhost, 127.0.0.1 and ::1 the made certificate covers (a LAN name, this machine's address). */
    names: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .refine((tls) => (tls.cert === undefined) === (tls.key === undefined), { message: 'cert and key go together' })
  .default({ enabled: true, names: [] });
export type TlsSettings = z.infer<typeof tlsSettingsSchema>;

/**
 * The certificate and key a server answers https with: the configured files, or one made by a
 * local CA in `dir` (its path logged, for NODE_EXTRA_CA_CERTS). Null when TLS is off.
 */
export async function serverTls(
  settings: TlsSettings,
  options: { dir: string; label: string; logger: Logger },
): Promise<{ cert: string; key: string } | null> {
  if (!settings.enabled) return null;
  if (settings.cert && settings.key) return { cert: await readFile(settings.cert, 'utf8'), key: await readFile(settings.key, 'utf8') };
  const made = await ensureLocalCertificate({ dir: options.dir, names: settings.names, label: options.label });
  options.logger.info(
    made.created ? 'https: a local CA and certificate were made; trust the CA to use https' : 'https: local certificate in use',
    { ca: made.caPath, hint: `NODE_EXTRA_CA_CERTS=${made.caPath}` },
  );
  return { cert: made.cert, key: made.key };
}
