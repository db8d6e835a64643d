/**
 * Requests of an HLS session that wait for something a frame may bring (a segment, a part, an
 * SPS, the init segment): each waits until its condition holds, the session closes, or its time
 * is up; `notify` wakes them all to look again.
 */
export function createWaiters(isClosed: () => boolean) {
  let wake: Array<() => void> = [];

  const notify = () => {
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
  };

  /** Waits until `ready()` holds, the session closes, or `ms` pass; true when ready. */
  async function waitUntil(ready: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!ready() && !isClosed() && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake.push(resolve);
        timer = setTimeout(resolve, deadline - Date.now());
      });
      clearTimeout(timer);
    }
    return ready();
  }

  return { waitUntil, notify, waiting: () => wake.length > 0 };
}
