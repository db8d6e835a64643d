import { describe, expect, it } from 'vitest';
import { createSocket } from 'node:dgram';
import { bindRtpPair } from './rtsp-udp-ports';

/** Some containers have no ::1; the IPv6 case runs where it exists. */
function hasIpv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createSocket('udp6');
    probe.once('error', () => resolve(false));
    probe.bind(0, '::1', () => {
      probe.close();
      resolve(true);
    });
  });
}

describe('RTP/RTCP port pairs', () => {
  it('binds an even RTP port and the odd port above it, on the address asked for', async () => {
    const pairs = await Promise.all(Array.from({ length: 8 }, () => bindRtpPair('127.0.0.1')));
    try {
      for (const { rtp, rtcp } of pairs) {
        expect(rtp.address().port % 2).toBe(0);
        expect(rtcp.address().port).toBe(rtp.address().port + 1);
        expect(rtp.address().address).toBe('127.0.0.1');
      }
      expect(new Set(pairs.map((p) => p.rtp.address().port)).size).toBe(pairs.length);
      // The pair really receives.
      const { rtp } = pairs[0]!;
      const received = new Promise<string>((resolve) => rtp.once('message', (data: Buffer) => resolve(data.toString())));
      const sender = createSocket('udp4');
      sender.send('hello', rtp.address().port, '127.0.0.1', () => sender.close());
      expect(await received).toBe('hello');
    } finally {
      for (const { rtp, rtcp } of pairs) [rtp, rtcp].forEach((s) => s.close());
    }
  });

  it('binds on IPv6 loopback too', async (context) => {
    if (!(await hasIpv6Loopback())) context.skip();
    const { rtp, rtcp } = await bindRtpPair('::1');
    expect(rtp.address()).toMatchObject({ address: '::1', family: 'IPv6' });
    rtp.close();
    rtcp.close();
  });

  it('fails with a clear error on an address this machine does not have', async () => {
    await expect(bindRtpPair('192.0.2.1')).rejects.toThrow(/EADDRNOTAVAIL/);
  });
});
