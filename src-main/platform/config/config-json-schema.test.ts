import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configSchemas } from '../../engine/modules';
import { configJsonSchema } from './config-json-schema';

type Node = { properties?: Record<string, Node>; description?: string; type?: string; default?: unknown; enum?: unknown[] };

describe('configJsonSchema', () => {
  it('merges sections read by several schemas and drops required keys', () => {
    const schema = configJsonSchema([
      z.object({ api: z.object({ listen: z.string().default(':1984').describe('where the API listens') }) }),
      z.object({ directory: z.object({ graph: z.object({ tenant: z.string() }) }) }),
      z.object({ directory: z.object({ emulator: z.object({ listen: z.string() }) }) }),
    ]) as Node & { required?: string[] };
    expect(Object.keys(schema.properties!)).toEqual(['api', 'directory']);
    expect(Object.keys(schema.properties!.directory!.properties!)).toEqual(['graph', 'emulator']);
    expect(schema.properties!.api!.properties!.listen).toMatchObject({
      type: 'string',
      default: ':1984',
      description: 'where the API listens',
    });
    expect(JSON.stringify(schema)).not.toContain('"required"');
  });

  it('describes the real engine config: api, rtsp, webrtc, streams, log levels', () => {
    const schema = configJsonSchema(configSchemas) as Node;
    const top = schema.properties!;
    for (const key of ['data_dir', 'api', 'log', 'rtsp', 'webrtc', 'streams', 'storage', 'directory']) expect(top).toHaveProperty(key);
    expect(top.api!.properties).toHaveProperty('listen');
    expect(top.rtsp!.properties).toHaveProperty('listen');
    expect(top.log!.properties!.level!.enum).toEqual(['trace', 'debug', 'info', 'warn', 'error']);
    expect(top.api!.description).toBeTruthy();
  });
});
