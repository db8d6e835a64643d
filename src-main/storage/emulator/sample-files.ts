import { loadSharp } from '../../platform/lazy-sharp';
import type { BlobStore } from './blob-store';
import type { ObjectService } from './object-service';

/** A few files so a first run of the demo account has something to browse and preview. */
export async function seedSampleFiles(objects: ObjectService, blobs: BlobStore, bucket: string): Promise<void> {
  const sharp = await loadSharp();
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 32, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  const files: { key: string; body: Buffer; mime: string }[] = [
    { key: 'README.txt', body: Buffer.from('This bucket belongs to the Kodo emulator demo account.\n'), mime: 'text/plain' },
    { key: 'images/sample.png', body: png, mime: 'image/png' },
    {
      key: 'data/sample.json',
      body: Buffer.from(JSON.stringify({ hello: 'kodo', items: [1, 2, 3] }, null, 2) + '\n'),
      mime: 'application/json',
    },
  ];
  for (const file of files) {
    await objects.commit({ bucket, key: file.key, staged: await blobs.stage([file.body]), mime: file.mime, overwrite: true });
  }
}
