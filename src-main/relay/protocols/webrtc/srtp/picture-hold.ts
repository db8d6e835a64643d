/**
 * How long a picture whose packets straddle event-loop turns may hold its first packets back
 * (ms): a camera's read often ends inside a picture, and sending at each turn's end made one
 * batch (a system call) per piece instead of one per picture. The RTSP server's TCP writer
 * holds the same way; so does a track's fan-out to all its viewers (`srtp-fanout.ts`).
 */
export const HOLD_MS = 1;

/**
 * How much longer a turn's packets may wait for their picture's end (ms), or 0 to send them now:
 * only video holds, only while its last picture is open, and at most `HOLD_MS` from the first.
 */
export function holdLeft(holdPictures: boolean, pictureOpen: boolean, pendingSince: number): number {
  if (!holdPictures || !pictureOpen) return 0;
  return Math.max(0, HOLD_MS - (performance.now() - pendingSince));
}
