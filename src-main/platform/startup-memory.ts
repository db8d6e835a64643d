import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc()` with the options of its extension (Node 24's V8). */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * How long after a start the engine gives back what starting took: its modules are up and the
 * first requests of a console that opened with it have been answered.
 */
const RELEASE_AFTER_MS = 3_000;

/**
 * V8's collector, without a `gc` on the engine's global object: the flag gives it to contexts
 * made while it is on, so one such context is made and asked for it (as Jest reads heap sizes),
 * and the flag goes off again so that no later context (a worker, a `vm` sandbox) has it.
 * Undefined where the runtime refuses.
 */
function collector(): Collect | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Collect) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Gives back the memory that starting took and nothing uses any more. Loading the engine's
 * modules keeps most of what it allocates, so V8 grows the young generation to its largest
 * (two 8 MiB semi-spaces) while the engine starts, and left to itself keeps it that size for the
 * process's lifetime; at a hundred RTSP viewers of one camera the young generation then
 * needed only 2 MiB a semi-space. One full collection in memory-reducing mode ("last resort":
 * what V8 does under memory pressure) shrinks it to its smallest and compacts the old generation;
 * V8 grows it again as the load asks. About 50 ms, once. Returns whether it ran.
 */
export function releaseStartupMemory(): boolean {
  const gc = collector();
  if (!gc) return false;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}

/** `releaseStartupMemory` once, `RELEASE_AFTER_MS` from now, without keeping the process alive for it; returns a cancel. */
export function scheduleStartupRelease(delayMs = RELEASE_AFTER_MS): () => void {
  const timer = setTimeout(releaseStartupMemory, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
