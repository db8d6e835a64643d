import { write, writeSync, writev, writevSync } from 'node:fs';
import { promisify } from 'node:util';

const writevAt = promisify(writev);
const writeAt = promisify(write);

/**
 * Writes runs of buffers one after another into a file (a descriptor) from a starting offset,
 * with one write in flight while the caller gathers the next run: the body keeps arriving while
 * the disk works.
 */
export class RunWriter {
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly fd: number,
    private position: number,
  ) {}

  /** Waits for the run before this one (so at most two are held), then starts this one. */
  async push(run: Buffer[], length: number): Promise<void> {
    await this.inFlight;
    const at = this.position;
    this.position += length;
    this.inFlight = this.write(run, length, at);
  }

  /**
   * The body's last run, written in place while the run before it may still be on its way (they
   * do not overlap): nothing else waits on the event loop, and a round trip through the thread
   * pool would be on the path from the body's last byte to its reply.
   */
  pushLast(run: Buffer[], length: number): void {
    const at = this.position;
    this.position += length;
    let done = writevSync(this.fd, run, at);
    if (done < length) {
      const rest = Buffer.concat(run, length);
      while (done < length) done += writeSync(this.fd, rest, done, length - done, at + done);
    }
  }

  /** Settles when every pushed run is on its way to the disk (in the page cache), or rejects with the first failure. */
  finish(): Promise<void> {
    return this.inFlight;
  }

  private async write(run: Buffer[], length: number, at: number): Promise<void> {
    const { bytesWritten } = await writevAt(this.fd, run, at);
    if (bytesWritten < length) {
      // A short vectored write (rare): finish the rest in plain writes.
      const rest = Buffer.concat(run, length).subarray(bytesWritten);
      for (let done = 0; done < rest.length;)
        done += (await writeAt(this.fd, rest, done, rest.length - done, at + bytesWritten + done)).bytesWritten;
    }
  }
}
