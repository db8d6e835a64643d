import { jpegCodec } from '../../frames/codec-description';
import { ByteQueue, DemuxError, type Demuxer, type DemuxSink } from '../demuxer';
import { findJpegEnd, isJpegStart } from './jpeg-boundaries';

const MAX_PICTURE_BYTES = 16 * 1024 * 1024;
const MAX_PART_HEADER_BYTES = 8 * 1024;

export interface MjpegDemuxerOptions {
  /** The boundary from the Content-Type, if the sender gave one; else read from the body. */
  boundary?: string;
  /** 90 kHz time of a picture; wall clock by default (MJPEG carries no timestamps). */
  now?: () => number;
}

/**
 * Motion JPEG as cameras and ffmpeg send it: `multipart/x-mixed-replace` parts (with or without
 * Content-Length, boundary with or without its leading dashes) or plain concatenated JPEGs
 * (ffmpeg `-f mjpeg`). Every picture is a keyframe; its time is when it arrived.
 */
export function createMjpegDemuxer(sink: DemuxSink, options: MjpegDemuxerOptions = {}): Demuxer {
  const queue = new ByteQueue();
  const now = options.now ?? (() => Math.round(performance.now() * 90));
  let mode: 'multipart' | 'raw' | undefined;
  let boundary = options.boundary?.replace(/^--/, '');
  let announced = false;
  let pictures = 0;
  let consumed = 0;

  const fail = (message: string): never => {
    throw new DemuxError(`MJPEG: ${message} (at byte ${consumed})`);
  };

  function deliver(picture: Uint8Array): void {
    if (!isJpegStart(picture)) fail(`part ${pictures + 1} is not a JPEG`);
    if (!announced) {
      announced = true;
      sink.tracks([{ kind: 'video', codec: jpegCodec() }]);
    }
    pictures++;
    sink.frame(0, { codec: 'JPEG', timestamp: now() % 2 ** 32, keyframe: true, data: Uint8Array.from(picture) });
  }

  function readRaw(): void {
    for (;;) {
      const bytes = queue.peek(queue.length)!;
      if (bytes.length < 4) return;
      if (!isJpegStart(bytes)) fail('expected a JPEG start (FF D8) between pictures');
      let end: number | undefined;
      try {
        end = findJpegEnd(bytes);
      } catch (error) {
        fail((error as Error).message);
      }
      if (end === undefined) {
        if (bytes.length > MAX_PICTURE_BYTES) fail(`a picture grew past ${MAX_PICTURE_BYTES} bytes without its end`);
        return;
      }
      deliver(queue.take(end)!);
      consumed += end;
    }
  }

  /** The CR/LF between a part and the next boundary, which may arrive in a later chunk. */
  function skipLineBreaks(): void {
    while (queue.peek(1)?.[0] === 0x0d || queue.peek(1)?.[0] === 0x0a) {
      queue.take(1);
      consumed++;
    }
  }

  function readMultipart(atEnd = false): void {
    for (;;) {
      skipLineBreaks();
      const bytes = queue.peek(queue.length)!;
      const headersEnd = bytes.indexOf('\r\n\r\n');
      if (headersEnd < 0) {
        if (bytes.length > MAX_PART_HEADER_BYTES) fail('no end of part headers in the first 8 KiB of a part');
        return;
      }
      const head = bytes.subarray(0, headersEnd).toString('latin1');
      const lines = head.split('\r\n').filter((line) => line.length > 0);
      const marker = lines.shift() ?? '';
      boundary ??= marker.replace(/^--/, '');
      if (marker.replace(/^--/, '') !== boundary) fail(`expected the boundary "${boundary}", got "${marker.slice(0, 40)}"`);
      const length = Number(/^content-length:\s*(\d+)/im.exec(lines.join('\n'))?.[1] ?? NaN);
      const bodyStart = headersEnd + 4;
      let bodyEnd: number;
      let next: number;
      if (Number.isFinite(length)) {
        if (length > MAX_PICTURE_BYTES) fail(`a part of ${length} bytes is larger than any real picture`);
        bodyEnd = bodyStart + length;
        if (bytes.length < bodyEnd) return;
        next = bodyEnd;
      } else {
        let found = bytes.indexOf(`--${boundary}`, bodyStart);
        // The last part of a finished body has no boundary after it.
        if (found < 0 && atEnd && bytes.length > bodyStart) found = bytes.length;
        if (found < 0) {
          if (bytes.length > MAX_PICTURE_BYTES) fail(`a part grew past ${MAX_PICTURE_BYTES} bytes without a boundary`);
          return;
        }
        bodyEnd = found;
        next = found;
      }
      let picture = bytes.subarray(bodyStart, bodyEnd);
      while (picture.length > 0 && (picture[picture.length - 1] === 0x0a || picture[picture.length - 1] === 0x0d))
        picture = picture.subarray(0, -1);
      deliver(picture);
      queue.take(next);
      consumed += next;
    }
  }

  return {
    format: 'mjpeg',
    push(chunk) {
      queue.append(chunk);
      if (!mode) {
        // Some cameras open with an empty line before the first boundary.
        skipLineBreaks();
        const head = queue.peek(2);
        if (!head) return;
        if (isJpegStart(head)) mode = 'raw';
        else if (head.toString('latin1') === '--' || boundary) mode = 'multipart';
        else fail('the body is neither multipart MJPEG nor JPEG pictures');
      }
      if (mode === 'raw') readRaw();
      else readMultipart();
    },
    end() {
      if (mode === 'multipart') readMultipart(true);
      if (pictures === 0) fail(consumed === 0 && queue.length === 0 ? 'the body is empty' : 'the body ended before a whole picture');
    },
  };
}
