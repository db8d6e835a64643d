import fc from 'fast-check';
import { describe, it } from 'vitest';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '../../test-support/fuzz-budget';
import { effectiveConfig } from './config-store';
import { ConfigFileError, ConfigSyntaxError } from './errors';

const LINES = [
  'api:',
  '  listen: 127.0.0.1:1984',
  'streams:',
  '  cam: rtsp://x/1',
  '  two: [a, b]',
  'a: &x [1, 2]',
  'b: *x',
  'c: ${HOME:default}',
  '- item',
  '? complex',
  '  : value',
  '"quoted": \'x\'',
  'd: |',
  '  block',
  '%YAML 1.2',
  '---',
  'e: !!binary aGVsbG8=',
  'f: {a: 1, b: [2, 3]}',
];

describe('fuzz: the YAML config path', () => {
  it(
    'any text gives config values or a ConfigSyntaxError / ConfigFileError, never another exception',
    () => {
      const text = fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.array(fc.constantFrom(...LINES), { maxLength: 14 }).map((lines) => lines.join('\n')),
      );
      fc.assert(
        fc.property(text, (t) => valueOrTypedError(() => effectiveConfig(t, { HOME: '/home/x' }), ConfigSyntaxError, ConfigFileError)),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
