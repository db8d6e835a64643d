import { describe, expect, it } from 'vitest';
import { createMultipartJpegReader } from './multipart-jpeg';

const encoder = new TextEncoder();
const part = (bytes: number[]) => [
  ...encoder.encode(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${bytes.length}\r\n\r\n`),
  ...bytes,
  13,
  10,
];

describe('createMultipartJpegReader', () => {
  const body = new Uint8Array([...part([0xff, 0xd8, 1, 2, 0xff, 0xd9]), ...part([0xff, 0xd8, 3, 0xff, 0xd9])]);

  it('finds every picture whatever the chunk size', () => {
    for (const size of [1, 3, 7, 64, body.length]) {
      const reader = createMultipartJpegReader();
      const pictures: number[][] = [];
      for (let i = 0; i < body.length; i += size) pictures.push(...reader.push(body.subarray(i, i + size)).map((p) => [...p]));
      expect(pictures).toEqual([
        [0xff, 0xd8, 1, 2, 0xff, 0xd9],
        [0xff, 0xd8, 3, 0xff, 0xd9],
      ]);
    }
  });

  it('refuses an answer that is not MJPEG', () => {
    expect(() => createMultipartJpegReader().push(encoder.encode('--frame\r\nContent-Type: image/jpeg\r\n\r\nxx'))).toThrow(
      /Content-Length/,
    );
    expect(() => createMultipartJpegReader().push(new Uint8Array(5000))).toThrow(/no part header/);
  });
});
