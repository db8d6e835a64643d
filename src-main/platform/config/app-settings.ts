import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { userDataDir, type PlatformInfo } from './default-paths';
import { ConfigFileError } from './errors';
import type { ConfigObject } from './config-store';

const listenAddress = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]*):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:1984 or :1984');

const appSettingsSchema = z.object({
  data_dir: z.string().min(1).optional(),
  api: z
    .object({
      listen: listenAddress.default('127.0.0.1:1984'),
      username: z.string().optional(),
      password: z.string().optional(),
    })
    .loose()
    .default({ listen: '127.0.0.1:1984' }),
  log: z
    .object({ level: z.enum(['trace', 'debug', 'info', 'warn', 'error']).default('info') })
    .loose()
    .default({ level: 'info' }),
});

export interface AppSettings {
  dataDir: string;
  api: { host: string; port: number; username?: string; password?: string };
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

/** Splits `host:port`; an empty host (":1984", as go2rtc writes it) means every interface. */
export function parseListen(listen: string): { host: string; port: number } {
  const at = listen.lastIndexOf(':');
  let host = listen.slice(0, at);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host: host === '' ? '0.0.0.0' : host, port: Number(listen.slice(at + 1)) };
}

/** The settings every module shares: where to listen, where state lives, how much to log. */
export function readAppSettings(config: ConfigObject, configPath: string, platform: PlatformInfo): AppSettings {
  const parsed = appSettingsSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigFileError(`config ${configPath}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const { data_dir, api, log } = parsed.data;
  const dataDir = data_dir
    ? isAbsolute(data_dir)
      ? data_dir
      : resolve(dirname(configPath), data_dir)
    : userDataDir(platform);
  const listen = parseListen(api.listen);
  return {
    dataDir,
    api: { ...listen, username: api.username, password: api.password },
    logLevel: log.level,
  };
}
