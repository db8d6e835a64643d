import type { Server } from 'node:net';

/** Listens and resolves with the bound port (the one the OS picked when `port` is 0). */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/**
 * Why a server could not listen, as a sentence that names the setting or flag that changes its
 * address (`change rtsp.listen`), instead of Node's `listen EADDRINUSE`.
 */
export function listenFailure(error: unknown, address: string, change: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'EADDRINUSE'
      ? `${address} is already in use by another program (another Relay Console or go2rtc?)`
      : code === 'EACCES'
        ? `listening on ${address} needs privileges this user lacks (ports below 1024)`
        : code === 'EADDRNOTAVAIL'
          ? `${address} is not an address of this machine`
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? `the host of ${address} cannot be resolved`
            : `cannot listen on ${address}: ${(error as Error).message}`;
  return Object.assign(new Error(`${why}; ${change}`), { code });
}
