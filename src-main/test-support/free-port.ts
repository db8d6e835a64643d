import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's default ephemeral range, where the kernel's own picks for port 0 fall. */
const DEFAULT_EPHEMERAL = { low: 32768, high: 60999 };
/** The fixed ports handed out start here (below, system services and well-known ports). */
const LOWEST = 10_000;

/**
 * A loopback port free right now, for a server that must be told its port up front (a console
 * that keeps its address across restarts, a camera a config points at, an emulator's URL).
 *
 * Taken outside the kernel's ephemeral range: every other server in a test run listens on port 0
 * and gets a port from that range, so one of them could take a port picked from it between this
 * check and the server's own bind (it did: the storage emulator's port once answered as the
 * console's API).
 */
export async function freePort(): Promise<number> {
  const { low } = ephemeralRange();
  const highest = Math.max(LOWEST + 1_000, low - 1);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free loopback port found between ${LOWEST} and ${highest}`);
}

function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return low && high ? { low, high } : DEFAULT_EPHEMERAL;
  } catch {
    return DEFAULT_EPHEMERAL;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
