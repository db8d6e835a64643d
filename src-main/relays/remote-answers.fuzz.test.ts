import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamSummarySchema } from '@shared/contract/relay';
import { relaysService } from '@shared/contract/relays';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '@main/test-support/fuzz-budget';
import { parseRemoteInfo, parseRemoteStreams, probedMedias, relayHealth, RemoteAnswerError } from './remote-answers';
import { readRelaysSection } from './relays-config';

/** Values a relay's JSON may hold where a field is expected: right, wrong-typed, huge, hostile. */
const field = fc.oneof(
  fc.constantFrom(null, 0, -1, 1e308, Number.NaN, true, '', 'video, recvonly, H264', 'rtsp://admin:hunter2@cam/1', 'exec:rm -rf /'),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
);
const connection = fc.dictionary(
  fc.constantFrom(
    'url',
    'source',
    'state',
    'medias',
    'receivers',
    'senders',
    'bytes_recv',
    'bytes_send',
    'recv',
    'send',
    'error',
    'protocol',
    'remote_addr',
  ),
  fc.oneof(
    field,
    fc.array(field, { maxLength: 4 }),
    fc.array(
      fc.record({
        codec: fc.dictionary(fc.constantFrom('codec_name', 'codec_type', 'width', 'height', 'sample_rate', 'channels', 'profile'), field),
        drops: field,
      }),
      { maxLength: 3 },
    ),
  ),
);
const streamsAnswer = fc.oneof(
  fc.dictionary(
    fc.string({ maxLength: 20 }),
    fc.oneof(
      field,
      fc.record({
        producers: fc.oneof(field, fc.array(fc.oneof(connection, field), { maxLength: 4 })),
        consumers: fc.oneof(field, fc.array(fc.oneof(connection, field), { maxLength: 4 })),
      }),
    ),
    { maxKeys: 6 },
  ),
  fc.jsonValue({ maxDepth: 4 }),
);

const streamsAnswerSchema = relaysService.events.onStreams;

describe('fuzz: what a remote relay answers', () => {
  it(
    'its /api/streams becomes summaries the contract accepts, with no login in them, or a RemoteAnswerError',
    () => {
      fc.assert(
        fc.property(streamsAnswer, (answer) =>
          valueOrTypedError(() => {
            const streams = parseRemoteStreams(JSON.parse(JSON.stringify(answer)) as unknown);
            for (const stream of streams) expect(streamSummarySchema.safeParse(stream).success).toBe(true);
            expect(streamsAnswerSchema.safeParse([{ relay: 'north', streams }]).success).toBe(true);
            expect(JSON.stringify(streams)).not.toContain('hunter2');
            const health = relayHealth({}, streams);
            expect(Number.isFinite(health.bytesIn) && health.bytesIn >= 0).toBe(true);
            probedMedias(answer);
          }, RemoteAnswerError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'its /api gives a version and an RTSP port in range, or a RemoteAnswerError; a relays: section never throws',
    () => {
      const info = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({ version: field, rtsp: fc.oneof(field, fc.record({ listen: field })), uptime: field }),
      );
      fc.assert(
        fc.property(info, fc.dictionary(fc.string({ maxLength: 12 }), field, { maxKeys: 5 }), (answer, section) => {
          const read = readRelaysSection(section);
          for (const relay of read.relays) expect(relay.url).toMatch(/^https?:\/\/[^@/]+/);
          return valueOrTypedError(() => {
            const parsed = parseRemoteInfo(JSON.parse(JSON.stringify(answer)) as unknown);
            if (parsed.rtspPort !== undefined) expect(parsed.rtspPort > 0 && parsed.rtspPort < 65_536).toBe(true);
          }, RemoteAnswerError);
        }),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
