import { loadSharp } from '@main/platform/lazy-sharp';
import type { SnapshotParams } from './snapshot-params';

/**
 * Resizes (then rotates) a JPEG as `frame.jpeg` asks: with one of width or height the other
 * keeps the aspect ratio, with both the picture is stretched to them (as ffmpeg's scale does in
 * go2rtc). Without either and without rotate, the JPEG is returned untouched.
 */
export async function transformJpeg(jpeg: Uint8Array, params: Pick<SnapshotParams, 'width' | 'height' | 'rotate'>): Promise<Uint8Array> {
  if (!params.width && !params.height && params.rotate === 0) return jpeg;
  const sharp = await loadSharp();
  let image = sharp(jpeg, { failOn: 'none' });
  if (params.width || params.height)
    image = image.resize({ width: params.width, height: params.height, fit: params.width && params.height ? 'fill' : 'inside' });
  if (params.rotate) image = image.rotate(params.rotate);
  return image.jpeg({ quality: 85 }).toBuffer();
}
