import { createServer, type AddressInfo } from 'node:net';

/**
 * A loopback port free right now, for a server that must be told its port up front (a console
 * that keeps its address across restarts, a camera a config points at).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
