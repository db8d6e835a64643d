import type SharpModule from 'sharp';

/**
 * sharp, loaded on first use rather than at start: libvips is about 12 MB resident, and most
 * runs never resize a snapshot or process an image (Node caches the module after the first call).
 */
export async function loadSharp(): Promise<typeof SharpModule> {
  return (await import('sharp')).default;
}
