import type { ServerResponse } from 'node:http';

export interface MultipartWriter {
  /** Sends the status and headers; pictures written before are ignored. */
  start(): void;
  /** Sends one picture, or skips it (false) while the client has not taken the ones before. */
  write(jpeg: Uint8Array): boolean;
  readonly stats: { sent: number; skipped: number; bytes: number };
}

/** What a client may leave unread before pictures are skipped: two pictures, and at least this. */
const MIN_BACKLOG = 256 * 1024;

/**
 * go2rtc's MJPEG framing: `multipart/x-mixed-replace; boundary=frame`, each part
 * `--frame\r\nContent-Type: image/jpeg\r\nContent-Length: N\r\n\r\n<jpeg>\r\n`. The next
 * part's boundary goes out right after each picture (same bytes, sent earlier), because browsers
 * show a part only once the boundary after it arrives. A slow client skips pictures (each one
 * stands alone) instead of making the relay buffer without bound.
 */
export function createMultipartWriter(res: ServerResponse): MultipartWriter {
  const stats = { sent: 0, skipped: 0, bytes: 0 };
  let started = false;
  return {
    stats,
    start() {
      if (started || res.headersSent) return;
      started = true;
      res.writeHead(200, {
        'Content-Type': 'multipart/x-mixed-replace; boundary=frame',
        'Cache-Control': 'no-cache',
        Pragma: 'no-cache',
      });
      res.write('--frame\r\n');
    },
    write(jpeg) {
      if (!started || res.writableEnded || res.destroyed) return false;
      if (res.writableLength > Math.max(MIN_BACKLOG, 2 * jpeg.length)) {
        stats.skipped++;
        return false;
      }
      const head = `Content-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`;
      res.cork(); // one send for the three pieces
      res.write(head);
      res.write(jpeg);
      res.write('\r\n--frame\r\n');
      res.uncork();
      stats.sent++;
      stats.bytes += head.length + jpeg.length + 11;
      return true;
    },
  };
}
