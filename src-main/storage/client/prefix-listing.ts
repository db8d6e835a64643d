import type { KodoClient } from './kodo-client';

/**
 * Every object under a prefix (sub-folders included), counted page by page from the service's
 * listing, 1000 keys a request. The prefix's own folder marker is left out: "all objects in
 * photos/" are what is inside it, and a batch on them leaves the folder itself.
 */
export async function countUnder(
  client: Pick<KodoClient, 'listObjects'>,
  bucket: string,
  prefix: string,
): Promise<{ objects: number; bytes: number }> {
  let objects = 0;
  let bytes = 0;
  let marker: string | undefined;
  do {
    const page = await client.listObjects(bucket, { prefix, delimiter: '', limit: 1000, ...(marker ? { marker } : {}) });
    for (const object of page.objects) {
      if (object.key === prefix) continue;
      objects += 1;
      bytes += object.size;
    }
    marker = page.marker;
  } while (marker);
  return { objects, bytes };
}
