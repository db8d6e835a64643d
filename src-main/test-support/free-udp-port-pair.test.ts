import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { freeUdpPortPair } from './free-udp-port-pair';

describe('freeUdpPortPair', () => {
  it('gives an even port that, with the next one, a receiver can bind on the wildcard address', async () => {
    const port = await freeUdpPortPair();
    expect(port % 2).toBe(0);
    const sockets = [port, port + 1].map(() => createSocket('udp4'));
    await Promise.all(
      sockets.map(
        (s, i) =>
          new Promise<void>((resolve, reject) => {
            s.once('error', reject);
            s.bind(port + i, '0.0.0.0', resolve);
          }),
      ),
    );
    for (const s of sockets) s.close();
  });
});
