import { describe, expect, it } from 'vitest';
import type { JsonSchemaNode } from './config-schema';
import { describeType, schemaAt } from './config-schema';
import { schemaCompletions, siblingKeys } from './schema-completions';
import { problemPlace, problemText } from './problems';
import { schemaHover } from './schema-hover';
import { yamlPathAt } from './yaml-path-at';

const schema: JsonSchemaNode = {
  type: 'object',
  properties: {
    api: {
      type: 'object',
      description: 'HTTP API',
      properties: {
        listen: { type: 'string', default: '127.0.0.1:1984', description: 'host:port of the API' },
        origin: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      },
    },
    log: {
      type: 'object',
      properties: { level: { type: 'string', enum: ['debug', 'info', 'warn'], default: 'info', description: 'how much the engine logs' } },
    },
    rtsp: { type: 'object', properties: { local_auth: { type: 'boolean', default: false }, listen: { type: 'string' } } },
    webrtc: {
      type: 'object',
      properties: {
        ice_servers: {
          type: 'array',
          items: {
            type: 'object',
            properties: { urls: { type: 'string', description: 'stun: or turn: URL' }, username: { type: 'string' } },
          },
        },
      },
    },
    streams: { type: 'object', additionalProperties: {} },
  },
};

/** The text with `|` marking the cursor. */
const at = (marked: string) => yamlPathAt(marked.replace('|', ''), marked.indexOf('|'));

describe('yamlPathAt', () => {
  it('finds the mapping a key is typed in, by indentation', () => {
    expect(at('|')).toMatchObject({ path: [], kind: 'key', prefix: '' });
    expect(at('api:\n  lis|')).toMatchObject({ path: ['api'], kind: 'key', prefix: 'lis', from: 7 });
    expect(at('log:\n  level: info\n# note\n\napi:\n  listen: x\n  |')).toMatchObject({ path: ['api'], kind: 'key' });
    expect(at('api:\n  listen: x\nlo|')).toMatchObject({ path: [], kind: 'key', prefix: 'lo' });
  });

  it('knows a value is being typed and for which key', () => {
    expect(at('log:\n  level: w|')).toMatchObject({ path: ['log'], kind: 'value', key: 'level', prefix: 'w', from: 14 });
    expect(at('rtsp:\n  local_auth: |')).toMatchObject({ path: ['rtsp'], kind: 'value', key: 'local_auth', prefix: '' });
  });

  it('steps into list items', () => {
    expect(at('webrtc:\n  ice_servers:\n    - urls: stun:x\n      user|')).toMatchObject({
      path: ['webrtc', 'ice_servers', '[]'],
      kind: 'key',
      prefix: 'user',
    });
    expect(at('webrtc:\n  ice_servers:\n    - ur|')).toMatchObject({ path: ['webrtc', 'ice_servers', '[]'], kind: 'key', prefix: 'ur' });
  });
});

describe('schema completion and hover', () => {
  it('offers the keys of the mapping, minus the ones already written', () => {
    const keys = schemaCompletions(schema, at('api:\n  |'), ['origin']);
    expect(keys).toEqual([
      { label: 'listen', apply: 'listen: ', type: 'property', detail: 'string (default "127.0.0.1:1984")', info: 'host:port of the API' },
    ]);
    expect(schemaCompletions(schema, at('l|')).map((c) => c.label)).toEqual(['log']);
    expect(schemaCompletions(schema, at('a|'))[0]!.apply).toBe('api:\n');
    expect(schemaCompletions(schema, at('webrtc:\n  ice_servers:\n    - |')).map((c) => c.label)).toEqual(['urls', 'username']);
  });

  it('offers the values a key allows', () => {
    expect(schemaCompletions(schema, at('log:\n  level: |')).map((c) => c.label)).toEqual(['debug', 'info', 'warn']);
    expect(schemaCompletions(schema, at('log:\n  level: w|')).map((c) => c.label)).toEqual(['warn']);
    expect(schemaCompletions(schema, at('rtsp:\n  local_auth: |')).map((c) => c.label)).toEqual(['true', 'false']);
    expect(schemaCompletions(schema, at('streams:\n  cam: |'))).toEqual([]);
  });

  it('lists the keys already written beside the cursor', () => {
    const text = 'api:\n  listen: x\n  \n  origin: y\nlog:\n  level: info\n';
    expect(siblingKeys(text, text.indexOf('  \n') + 2)).toEqual(['listen', 'origin']);
  });

  it('explains the key under the pointer', () => {
    const text = 'log:\n  level: info\napi:\n  listen: 1\n';
    expect(schemaHover(schema, text, text.indexOf('level') + 2)).toEqual({
      path: 'log.level',
      type: '"debug" | "info" | "warn" (default "info")',
      description: 'how much the engine logs',
      from: 7,
      to: 12,
    });
    expect(schemaHover(schema, text, text.indexOf('info') + 1)).toBeUndefined();
    expect(schemaHover(schema, 'api:\n  nope: 1\n', 8)).toBeUndefined();
    expect(describeType(schemaAt(schema, ['api', 'origin'])!)).toBe('string or array');
  });
});

describe('problems', () => {
  it('say where they are once', () => {
    const problem = {
      message: 'invalid YAML: Nested mappings are not allowed (line 17, column 6)',
      severity: 'error' as const,
      line: 17,
      column: 6,
    };
    expect(problemPlace(problem)).toBe('line 17, column 6');
    expect(problemText(problem)).toBe('invalid YAML: Nested mappings are not allowed');
    expect(problemPlace({ message: 'x', severity: 'warning' })).toBe('whole file');
  });
});
