import { describe, expect, it } from 'vitest';
import { parseTrickleFragment } from './trickle-sdpfrag';

describe('trickle ICE fragments (RFC 8840) as WHIP and WHEP clients PATCH them', () => {
  it('candidates keep the media section they were written under; credentials and the end are noted', () => {
    const fragment = parseTrickleFragment(
      [
        'a=ice-ufrag:EsAw',
        'a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1',
        'm=audio 9 UDP/TLS/RTP/SAVPF 111',
        'a=mid:0',
        'a=candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host generation 0 ufrag EsAw network-id 1',
        'a=end-of-candidates',
        '',
      ].join('\r\n'),
    );
    expect(fragment).toEqual({
      ufrag: 'EsAw',
      password: 'P2uYro0UCOQ4zxjKXaWCBui1',
      candidates: [
        { candidate: 'candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host generation 0 ufrag EsAw network-id 1', mid: '0' },
      ],
      ended: true,
    });
  });

  it('an empty or foreign body is no candidates, not an error', () => {
    expect(parseTrickleFragment('')).toEqual({ candidates: [], ended: false });
    expect(parseTrickleFragment('hello\nworld')).toEqual({ candidates: [], ended: false });
  });
});
