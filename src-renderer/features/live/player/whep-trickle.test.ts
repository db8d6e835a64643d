import { describe, expect, it } from 'vitest';
import { candidateFragment, isIceLite } from './whep-trickle';

/** Chromium's local description once gathering ended (trimmed to what matters here). */
const LOCAL = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'c=IN IP4 0.0.0.0',
  'a=ice-ufrag:Zk3q',
  'a=ice-pwd:8bq1YhF0x1Xv0nH0jv3tX0Zp',
  'a=mid:0',
  'a=candidate:1 1 udp 2122260223 192.168.1.20 51000 typ host generation 0',
  'a=rtpmap:96 VP8/90000',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=ice-ufrag:Zk3q',
  'a=ice-pwd:8bq1YhF0x1Xv0nH0jv3tX0Zp',
  'a=mid:1',
  'a=candidate:1 1 udp 2122260223 192.168.1.20 51000 typ host generation 0',
  '',
].join('\r\n');

describe('WHEP before gathering ends', () => {
  it('tells an ICE-lite answer from a full agent', () => {
    expect(isIceLite('v=0\r\na=ice-lite\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n')).toBe(true);
    expect(isIceLite('v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=ice-ufrag:x\r\n')).toBe(false);
  });

  it('trickles every media section with its mid and candidates, the credentials once, and the end', () => {
    expect(candidateFragment(LOCAL).split('\r\n')).toEqual([
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'a=ice-ufrag:Zk3q',
      'a=ice-pwd:8bq1YhF0x1Xv0nH0jv3tX0Zp',
      'a=mid:0',
      'a=candidate:1 1 udp 2122260223 192.168.1.20 51000 typ host generation 0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=mid:1',
      'a=candidate:1 1 udp 2122260223 192.168.1.20 51000 typ host generation 0',
      'a=end-of-candidates',
      '',
    ]);
  });
});
