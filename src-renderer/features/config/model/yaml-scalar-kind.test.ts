import { describe, expect, it } from 'vitest';
import { plainScalarKind } from './yaml-scalar-kind';

describe('plainScalarKind', () => {
  it.each([
    ['8554', 'number'],
    ['-1', 'number'],
    ['+12', 'number'],
    ['0.5', 'number'],
    ['.5', 'number'],
    ['1e3', 'number'],
    ['2.5E-4', 'number'],
    ['0x1F', 'number'],
    ['0o17', 'number'],
    ['.inf', 'number'],
    ['-.Inf', 'number'],
    ['.NaN', 'number'],
    ['true', 'boolean'],
    ['False', 'boolean'],
    ['TRUE', 'boolean'],
    ['~', 'null'],
    ['null', 'null'],
    ['NULL', 'null'],
    // YAML 1.1's words are text in 1.2.
    ['yes', 'string'],
    ['off', 'string'],
    ['tRUE', 'string'],
    ['warn', 'string'],
    ['127.0.0.1:8554', 'string'],
    ['rtsp://cam/stream', 'string'],
    ['1.2.3', 'string'],
    ['0x', 'string'],
    ['12 monkeys', 'string'],
    [' 42 ', 'number'],
  ] as const)('%j is a %s', (text, kind) => {
    expect(plainScalarKind(text)).toBe(kind);
  });
});
