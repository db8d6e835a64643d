import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '@main/test-support/fuzz-budget';
import { damagedSample, splitAt } from '@main/test-support/fuzz-inputs';
import { RtspParser, RtspProtocolError } from './rtsp-parser';
import { parseSdp, SdpError } from './sdp';

const REQUESTS = [
  'OPTIONS rtsp://127.0.0.1:8554/cam RTSP/1.0\r\nCSeq: 1\r\n\r\n',
  'DESCRIBE rtsp://127.0.0.1:8554/cam?video&audio RTSP/1.0\r\nCSeq: 2\r\nAccept: application/sdp\r\n\r\n',
  'SETUP rtsp://127.0.0.1:8554/cam/trackID=0 RTSP/1.0\r\nCSeq: 3\r\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n\r\n',
  'ANNOUNCE rtsp://127.0.0.1:8554/cam RTSP/1.0\r\nCSeq: 4\r\nContent-Type: application/sdp\r\nContent-Length: 12\r\n\r\nv=0\r\ns=x\r\n\r\n',
  'RTSP/1.0 200 OK\r\nCSeq: 5\r\nSession: 1234\r\n\r\n',
];
const SDP = [
  'v=0',
  'o=- 0 0 IN IP4 127.0.0.1',
  's=cam',
  't=0 0',
  'm=video 0 RTP/AVP 96',
  'a=rtpmap:96 H264/90000',
  'a=fmtp:96 packetization-mode=1;sprop-parameter-sets=Z0IAH5WoFAFuQA==,aM48gA==',
  'a=control:trackID=0',
  'm=audio 0 RTP/AVP 8 0',
  'a=rtpmap:8 PCMA/8000',
  'a=sendonly',
  'a=control:trackID=1',
  '',
].join('\r\n');

const samples = (texts: readonly string[]) => texts.map((t) => Buffer.from(t, 'latin1'));

describe('fuzz: RTSP parser and SDP', () => {
  it(
    'the RTSP parser returns messages or throws RtspProtocolError, in any chunking',
    () => {
      const input = fc.oneof(
        damagedSample(samples(REQUESTS)),
        fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)),
      );
      fc.assert(
        fc.property(fc.array(input, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 6 }), (messages, cuts) => {
          const parser = new RtspParser();
          return valueOrTypedError(() => {
            for (const chunk of splitAt(Buffer.concat(messages), cuts)) parser.push(chunk);
          }, RtspProtocolError);
        }),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it('the RTSP parser keeps no more than a bounded header: an endless header line is refused', () => {
    const parser = new RtspParser();
    const line = Buffer.from(`OPTIONS rtsp://x/${'a'.repeat(1024)}`);
    expect(() => {
      for (let i = 0; i < 8 * 1024; i++) parser.push(line);
    }).toThrow(RtspProtocolError);
  });

  it(
    'SDP parsing returns medias or throws SdpError',
    () => {
      const input = fc.oneof(
        damagedSample(samples([SDP])).map((b) => b.toString('latin1')),
        fc.string({ maxLength: 400 }),
        fc
          .array(fc.constantFrom(...SDP.split('\r\n'), 'm=video 0 RTP/AVP', 'a=rtpmap:', 'a=fmtp:96', 'm=audio x y z'), { maxLength: 20 })
          .map((l) => `v=0\r\n${l.join('\r\n')}`),
      );
      fc.assert(
        fc.property(input, fc.boolean(), (text, backchannel) =>
          valueOrTypedError(() => parseSdp(text, 'recvonly', { backchannel }), SdpError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
