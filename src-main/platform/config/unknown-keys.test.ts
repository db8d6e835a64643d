import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { appSettingsSchema } from './app-settings';
import { findUnknownKeys, unknownKeyWarnings } from './unknown-keys';

const relay = z.object({
  rtsp: z
    .object({ listen: z.string().default('127.0.0.1:8554'), username: z.string().optional() })
    .loose()
    .optional(),
  streams: z.record(z.string(), z.unknown()).nullable().optional(),
});
const emulator = z.object({
  directory: z
    .object({
      emulator: z
        .object({ listen: z.string(), apps: z.array(z.object({ client_id: z.string() }).strict()).optional() })
        .strict()
        .optional(),
    })
    .loose(),
});
const client = z.object({ directory: z.object({ graph: z.object({ tenant: z.string() }).loose().optional() }).loose() });

describe('unknown config keys', () => {
  it('names top-level and section keys no schema reads, with the key they probably meant', () => {
    const config = {
      api: { listen: ':1984', lisen: ':1' },
      straems: { cam: 'rtsp://x' },
      streams: { 'any name': 'rtsp://y' },
      rtsp: { usrname: 'u' },
      homekit: {},
      directory: { graph: { tenant: 't', tennant: 'u' }, emulator: { listen: ':1986', apps: [{ client_id: 'a', clientid: 'b' }] } },
    };
    expect(findUnknownKeys(config, [appSettingsSchema, relay, emulator, client])).toEqual([
      { path: 'api.lisen', suggestion: 'api.listen' },
      { path: 'straems', suggestion: 'streams' },
      { path: 'rtsp.usrname', suggestion: 'rtsp.username' },
      { path: 'homekit' },
      { path: 'directory.graph.tennant', suggestion: 'directory.graph.tenant' },
      { path: 'directory.emulator.apps.0.clientid', suggestion: 'directory.emulator.apps.0.client_id' },
    ]);
  });

  it('finds nothing in a config that only uses known keys', () => {
    expect(findUnknownKeys({ data_dir: './d', log: { level: 'info' }, streams: null }, [appSettingsSchema, relay])).toEqual([]);
    expect(unknownKeyWarnings({ straems: {} }, [relay], '/etc/rc.yaml')).toEqual([
      'config /etc/rc.yaml: unknown key straems (did you mean streams?); Relay Console does not read it',
    ]);
  });
});
