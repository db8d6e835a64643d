import { describe, expect, it } from 'vitest';
import { ipv4Number } from './ipv4-number';

describe('ipv4Number', () => {
  it('reads dotted IPv4 and refuses anything else', () => {
    expect(ipv4Number('127.0.0.1')).toBe(0x7f000001);
    expect(ipv4Number('255.255.255.255')).toBe(0xffffffff);
    for (const bad of ['::1', '1.2.3', '1.2.3.256', '1.2.3.x', '01.2.3.4.5']) expect(() => ipv4Number(bad)).toThrow(/not an IPv4/);
  });
});
