import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';

/** A host that takes connections and hangs up at once: the dial fails, and fails again, quickly. */
async function refusingCamera(): Promise<{ port: number; close: () => void }> {
  const server: Server = createServer((socket: Socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

describe('passwords of temporary streams', () => {
  let relay: RelayUnderTest | undefined;
  let camera: Awaited<ReturnType<typeof refusingCamera>> | undefined;
  afterEach(async () => {
    await relay?.stop();
    camera?.close();
  });

  it('are masked in /api/streams, /api/stack and the 503 body while and after the relay tries the URL', async () => {
    camera = await refusingCamera();
    relay = await startRelay();
    const url = `rtsp://admin:hunter2@127.0.0.1:${camera.port}/stream1`;
    const answer = fetch(`${relay.api}/api/frame.jpeg?src=${encodeURIComponent(url)}`);

    // While it dials: the temporary stream is listed and its consumer is a task, both masked.
    const listed = await waitFor(async () => {
      const text = await (await fetch(`${relay!.api}/api/streams`)).text();
      return text.includes('127.0.0.1') ? text : undefined;
    });
    expect(listed).toContain(`rtsp://***@127.0.0.1:${camera.port}/stream1`);
    expect(listed).not.toContain('hunter2');
    const stack = await (await fetch(`${relay.api}/api/stack`)).text();
    expect(stack).toContain('***@127.0.0.1');
    expect(stack).not.toContain('hunter2');

    const response = await answer;
    expect(response.status).toBe(503);
    const body = await response.text();
    expect(body).toContain(`rtsp://***@127.0.0.1:${camera.port}/stream1`);
    expect(body).not.toContain('hunter2');
  }, 30_000);
});
