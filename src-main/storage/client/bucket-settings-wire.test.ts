import { describe, expect, it } from 'vitest';
import {
  corsFromWire,
  corsToWire,
  isTestDomain,
  lifecycleFromWire,
  lifecycleToWire,
  refererFromWire,
  refererToWire,
} from './bucket-settings-wire';

describe('bucket settings in Kodo wire shapes', () => {
  it('lifecycle rules both ways, missing days as 0', () => {
    const rule = { name: 'r1', prefix: 'logs/', toInfrequentAfterDays: 30, toArchiveAfterDays: 0, deleteAfterDays: 365 };
    expect(lifecycleToWire(rule)).toEqual({
      name: 'r1',
      prefix: 'logs/',
      to_line_after_days: 30,
      to_archive_after_days: 0,
      delete_after_days: 365,
    });
    expect(lifecycleFromWire({ ...lifecycleToWire(rule), ctime: '2026-01-01' })).toEqual(rule);
    expect(lifecycleFromWire({ name: 'bare' })).toEqual({
      name: 'bare',
      prefix: '',
      toInfrequentAfterDays: 0,
      toArchiveAfterDays: 0,
      deleteAfterDays: 0,
    });
  });

  it('CORS rules: empty lists and 0 max-age left out, unknown methods dropped on the way in', () => {
    const rule = { allowedOrigins: ['*'], allowedMethods: ['GET' as const], allowedHeaders: [], exposedHeaders: [], maxAgeSeconds: 0 };
    expect(corsToWire(rule)).toEqual({ allowed_origin: ['*'], allowed_method: ['GET'] });
    expect(corsFromWire({ allowed_origin: ['*'], allowed_method: ['get', 'TRACE'] })).toEqual(rule);
  });

  it('referer: mode numbers, ;-joined patterns, norefer; a bucket without a rule lets empty Referers through', () => {
    expect(refererToWire({ mode: 'deny', patterns: ['*.bad.com', 'bad.com'], allowEmpty: true })).toEqual({
      mode: 2,
      norefer: 1,
      pattern: '*.bad.com;bad.com',
      source_enabled: 1,
    });
    expect(refererToWire({ mode: 'off', patterns: ['x.com'], allowEmpty: false })).toMatchObject({ mode: 0, pattern: '*' });
    expect(refererFromWire({ anti_leech_mode: 1, refer_wl: ['a.com'], refer_bl: null, no_refer: false })).toEqual({
      mode: 'allow',
      patterns: ['a.com'],
      allowEmpty: false,
    });
    expect(refererFromWire({})).toEqual({ mode: 'off', patterns: [], allowEmpty: true });
  });

  it('tells test domains from bound ones', () => {
    expect(isTestDomain('q1w2e3r4t.bkt.kodo.localhost')).toBe(true);
    expect(isTestDomain('rz1ebh2z3.hn-bkt.clouddn.com')).toBe(true);
    expect(isTestDomain('photos.bkt.clouddn.com')).toBe(true);
    expect(isTestDomain('cdn.example.com')).toBe(false);
    expect(isTestDomain('bkt.kodo.localhost.example.com')).toBe(false);
  });
});
