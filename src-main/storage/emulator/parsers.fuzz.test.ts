import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { fuzzBudget, fuzzTimeout } from '../../test-support/fuzz-budget';
import { verifyUploadToken } from './auth';
import { decodeEntry, urlsafeB64Encode } from './encoding';
import { KodoError } from './kodo-error';
import { boundaryOf, readMultipart } from './multipart-reader';

const accounts = (ak: string) => (ak === 'ak' ? { accessKey: 'ak', secretKey: 'sk', dirRefresh: false } : undefined);

/** A value, or a KodoError (answered as a 4xx); anything else escapes to the server. */
async function valueOrKodoError(run: () => unknown): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (error instanceof KodoError) return true;
    throw error;
  }
}

const FORM = [
  '--B\r\nContent-Disposition: form-data; name="token"\r\n\r\nak:x:y\r\n',
  '--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n',
  '--B--\r\n',
];

describe('fuzz: Kodo multipart, upload token and entry parsers', () => {
  it(
    'multipart bodies of any shape give parts or a KodoError',
    async () => {
      const body = fc.oneof(
        fc
          .array(fc.constantFrom(...FORM, 'garbage', '\r\n', '--B', 'Content-Disposition: x\r\n'), { maxLength: 8 })
          .map((parts) => Buffer.from(parts.join(''))),
        fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b)),
      );
      await fc.assert(
        fc.asyncProperty(body, fc.integer({ min: 1, max: 64 }), async (bytes, chunk) =>
          valueOrKodoError(async () => {
            const chunks: Buffer[] = [];
            for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
            for await (const part of readMultipart(Readable.from(chunks), boundaryOf('multipart/form-data; boundary=B'))) {
              for await (const piece of part.body) void piece;
            }
          }),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'upload tokens and entries of any text give a value or a KodoError',
    async () => {
      const token = fc.oneof(
        fc.string({ maxLength: 120 }),
        fc
          .tuple(
            fc.constantFrom('ak', 'other', ''),
            fc.string({ maxLength: 20 }),
            fc.oneof(
              fc.string({ maxLength: 60 }),
              fc.json().map((j) => urlsafeB64Encode(j)),
            ),
          )
          .map(([a, s, p]) => `${a}:${s}:${p}`),
      );
      await fc.assert(
        fc.asyncProperty(
          token,
          fc.string({ maxLength: 60 }),
          async (t, entry) =>
            (await valueOrKodoError(() => verifyUploadToken(t, accounts, Date.now()))) &&
            (await valueOrKodoError(() => decodeEntry(entry))) &&
            (await valueOrKodoError(() => decodeEntry(urlsafeB64Encode(entry)))),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
