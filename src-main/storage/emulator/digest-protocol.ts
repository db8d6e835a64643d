// What DigestWorker (digest-worker.ts) and its thread (digest.thread.ts) say to each other: one
// job per body, named by id, its bytes moved (not copied) to the thread in order.

/** The digests of one body that a reply may need as soon as its last byte is in. */
export interface WantedDigests {
  md5: boolean;
  crc32: boolean;
  /** The 4 MiB block sha1s, from which the etag is made. */
  blocks: boolean;
}

export type DigestRequest =
  | { id: number; op: 'open'; want: WantedDigests }
  | { id: number; op: 'data'; bytes: ArrayBuffer }
  /** No more bytes: the thread replies `sums`, then `blocks`. */
  | { id: number; op: 'end' }
  /** The body was refused: forget the job. */
  | { id: number; op: 'drop' }
  /** The 4 MiB block sha1s of `size` bytes of a file from `start`, read by the thread itself: replies `blocks` or `failed`. */
  | { id: number; op: 'file'; path: string; start: number; size: number };

export type DigestReply =
  | { id: number; op: 'sums'; md5: string; crc32: number }
  /** The block sha1s laid end to end, 20 bytes each. */
  | { id: number; op: 'blocks'; hashes: ArrayBuffer }
  /** A file job could not read its bytes (the file was removed or cut meanwhile). */
  | { id: number; op: 'failed'; message: string };
