import { describe, expect, it } from 'vitest';
import type { Account } from './auth';
import { KodoError } from './kodo-error';
import { runBatch } from './manage-operations';
import type { ObjectService } from './object-service';

const account: Account = { accessKey: 'ak', secretKey: 'sk', dirRefresh: false };
const entry = (bucket: string, key: string): string => Buffer.from(`${bucket}:${key}`).toString('base64url');

/** The error a hard link past the file system's limit threw, paths and all. */
function emlink(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    "EMLINK: too many links, link '/srv/relay/data/storage/objects/3f2a' -> '/srv/relay/data/storage/objects/9c1d'",
  );
  error.code = 'EMLINK';
  error.syscall = 'link';
  error.path = '/srv/relay/data/storage/objects/3f2a';
  return error;
}

/** An object service whose copy to `broken.bin` fails inside the service and to `taken.bin` with 614. */
function objects(): ObjectService {
  return {
    ownedBucket: () => ({}),
    transfer: async (_kind: string, _src: unknown, dst: { key: string }) => {
      if (dst.key === 'broken.bin') throw emlink();
      if (dst.key === 'taken.bin') throw new KodoError(614, 'file exists');
    },
  } as unknown as ObjectService;
}

describe('runBatch', () => {
  it('a part-way failure inside the service is one 599 result among the others, without a path: 298', async () => {
    const logged: unknown[] = [];
    const ops = ['ok-1.bin', 'broken.bin', 'taken.bin', 'ok-2.bin'].map((key) => `/copy/${entry('pub', 'src.bin')}/${entry('pub', key)}`);
    const result = await runBatch(objects(), account, ops, (_op, error) => logged.push(error));
    expect(result.status).toBe(298);
    expect(result.body).toEqual([
      { code: 200 },
      { code: 599, data: { error: 'internal error: EMLINK' } },
      { code: 614, data: { error: 'file exists' } },
      { code: 200 },
    ]);
    expect(JSON.stringify(result.body)).not.toContain('/srv/');
    expect(logged).toHaveLength(1);
    expect((logged[0] as NodeJS.ErrnoException).code).toBe('EMLINK');
  });

  it('answers 200 when every op succeeds', async () => {
    const result = await runBatch(objects(), account, [`/copy/${entry('pub', 'a')}/${entry('pub', 'b')}`]);
    expect(result).toEqual({ status: 200, body: [{ code: 200 }] });
  });
});
