import { HttpError } from '../platform/http/http-error';
import type { KodoClient } from '../storage/client/kodo-client';
import { openObjectSource } from '../storage/client/object-source';

/** A segment is a few seconds of video: anything far larger is not one of ours. */
const MAX_SEGMENT_BYTES = 512 * 1024 * 1024;

/**
 * A segment object's bytes, read from the bucket through its download domain (signed for a
 * private bucket) by the relay itself; a player never needs the bucket's address or keys.
 */
export async function segmentBytes(client: KodoClient, bucket: string, key: string, signal?: AbortSignal): Promise<Buffer> {
  const source = await client.downloadSource(bucket, key, Math.floor(Date.now() / 1000) + 600);
  const response = await openObjectSource(source, signal ? { signal } : {}).catch((error: unknown) => {
    throw new HttpError(
      502,
      `the bucket ${bucket} could not be reached for ${key}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const status = response.statusCode ?? 0;
  if (status !== 200) {
    response.resume();
    if (status === 404 || status === 612)
      throw new HttpError(404, `the segment ${key} is not in the bucket ${bucket} (a lifecycle rule may have removed it)`);
    throw new HttpError(502, `the bucket ${bucket} answered ${status} for ${key}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SEGMENT_BYTES) {
      response.destroy();
      throw new HttpError(502, `${key} is larger than a segment can be`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
