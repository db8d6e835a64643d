import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { userDataDir, type PlatformInfo } from './default-paths';
import { ConfigFileError } from './errors';
import type { ConfigObject } from './config-store';

/**
 * What is wrong with a `host:port` listen address, in a sentence; undefined when it is fine.
 * Shared by every `*.listen` setting and the `--listen` flag, so none of them ends in a Node error.
 */
export function listenProblem(listen: string, example = '127.0.0.1:1984'): string | undefined {
  if (!/^(\[[0-9a-fA-F:.]+\]|[^:\s[\]]*):[^:]*$/.test(listen)) return `expected host:port, e.g. ${example} or :${example.split(':').pop()}`;
  const port = listen.slice(listen.lastIndexOf(':') + 1);
  if (!/^\d{1,5}$/.test(port)) return `the port must be a number, e.g. ${example} (got "${port}")`;
  if (Number(port) > 65535) return `the port must be 0-65535 (got ${port})`;
  return undefined;
}

/** A zod string checked by `listenProblem`; `allowEmpty` for servers an empty listen turns off (rtsp). */
export function listenSetting(example: string, options: { allowEmpty?: boolean } = {}) {
  return z.string().superRefine((value, ctx) => {
    if (options.allowEmpty && value === '') return;
    const problem = listenProblem(value, example);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

const listenAddress = listenSetting('127.0.0.1:1984');

/** The sections every module shares; exported so the engine knows their keys (see config-keys.ts). */
export const appSettingsSchema = z.object({
  data_dir: z.string().min(1).optional().describe('folder for all state (emulator data, preferences); relative to this file'),
  api: z
    .object({
      listen: listenAddress
        .default('127.0.0.1:1984')
        .describe('host:port of the API and the console; 127.0.0.1 keeps them on this machine'),
      username: z.string().optional().describe('Basic auth user for the API and the console'),
      password: z.string().optional().describe('password for api.username; ${ENV} keeps it out of the file'),
      origin: z
        .union([z.string(), z.array(z.string())], { error: 'expected "*" or a list of origins, e.g. origin: "https://dash.example.com"' })
        .optional()
        .describe('sites whose pages may read the API ("*" for any); none by default'),
      tls_listen: listenSetting('0.0.0.0:443')
        .optional()
        .describe('host:port of the API and the console over https (as go2rtc), besides api.listen'),
      tls_cert: z
        .string()
        .min(1)
        .optional()
        .describe('PEM certificate (chain included) for api.tls_listen, or the path of its file; without it a local CA makes one'),
      tls_key: z.string().min(1).optional().describe('PEM private key for api.tls_listen, or the path of its file'),
    })
    .loose()
    .refine((api) => (api.tls_cert === undefined) === (api.tls_key === undefined), {
      message: 'api.tls_cert and api.tls_key go together',
      path: ['tls_key'],
    })
    .refine((api) => api.tls_listen !== undefined || api.tls_cert === undefined, {
      message: 'api.tls_cert is set but api.tls_listen is not: add tls_listen: ":443" (or another port) for https',
      path: ['tls_listen'],
    })
    .default({ listen: '127.0.0.1:1984' })
    .describe('HTTP API (go2rtc-compatible) and the console page'),
  log: z
    .object({ level: z.enum(['trace', 'debug', 'info', 'warn', 'error']).default('info').describe('how much the engine logs') })
    .loose()
    .default({ level: 'info' })
    .describe('logging'),
});

/** `api.tls_listen`: https for the API and the console; cert and key as written (PEM text or file paths, relative to the config file). */
export interface ApiTlsSettings {
  host: string;
  port: number;
  cert?: string;
  key?: string;
  /** The config file's folder, for relative certificate paths. */
  baseDir: string;
}

export interface AppSettings {
  dataDir: string;
  /** `origins`: the sites whose pages may read answers (api.origin; `*` any), none by default. */
  api: { host: string; port: number; username?: string; password?: string; origins: string[]; tls?: ApiTlsSettings };
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
  const dataDir = data_dir ? (isAbsolute(data_dir) ? data_dir : resolve(dirname(configPath), data_dir)) : userDataDir(platform);
  const listen = parseListen(api.listen);
  return {
    dataDir,
    api: {
      ...listen,
      username: api.username,
      password: api.password,
      origins: api.origin === undefined ? [] : [api.origin].flat(),
      ...(api.tls_listen !== undefined
        ? { tls: { ...parseListen(api.tls_listen), cert: api.tls_cert, key: api.tls_key, baseDir: dirname(configPath) } }
        : {}),
    },
    logLevel: log.level,
  };
}
