/**
 * How long media waits for the Finished at most: it crosses the loopback bridge within a turn or
 * two of the event loop; this only bounds a Finished the mux did not recognise.
 */
const FINISHED_WAIT_MS = 250;

/**
 * Holds a viewer's first media until its DTLS keys can be there. As DTLS client the relay's
 * Finished goes first and the viewer's ends the handshake, so media may start the moment werift
 * says "connected". As DTLS server werift says so as it sends its own Finished, which still has
 * to cross the loopback bridge to the shared port, while media sent straight from that port
 * would overtake it and be dropped by a viewer without keys (the first picture then waits for
 * the next keyframe). Media through werift's own path follows the Finished and never waits.
 */
export class FinishedGate {
  private sent = false;
  private waiting: { start: () => void; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly waitMs = FINISHED_WAIT_MS) {}

  /** The mux saw the session's Finished leave the shared port for the viewer. */
  finishedSent(): void {
    this.sent = true;
    this.release();
  }

  /** DTLS is up: `start` runs now, or once the Finished has left when media goes straight from the shared port. */
  connected(direct: boolean, start: () => void): void {
    if (!direct || this.sent) return start();
    this.close();
    const timer = setTimeout(() => this.release(), this.waitMs);
    timer.unref();
    this.waiting = { start, timer };
  }

  /** Forgets a start still waiting (the session ended). */
  close(): void {
    if (this.waiting) clearTimeout(this.waiting.timer);
    this.waiting = undefined;
  }

  private release(): void {
    const waiting = this.waiting;
    this.close();
    waiting?.start();
  }
}
