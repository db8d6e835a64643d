import fc from 'fast-check';

// Offers and trickled fragments as browsers and WHIP clients send them, and a mutator that damages
// them line by line: the inputs of the WHIP/WHEP fuzz properties.

/** An offer as Chromium writes one for a recvonly viewer (WHEP): video H264 and VP8, audio Opus. */
export const VIEWER_OFFER = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'a=extmap-allow-mixed',
  'a=msid-semantic: WMS',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103',
  'c=IN IP4 0.0.0.0',
  'a=rtcp:9 IN IP4 0.0.0.0',
  'a=candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host generation 0 network-id 1',
  'a=ice-ufrag:EsAw',
  'a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 0F:74:31:25:CB:A2:13:EC:28:6F:6D:2C:61:FF:5D:C2:BC:B9:DB:3D:98:14:8D:1A:BB:EA:33:0C:A4:60:A8:8E',
  'a=setup:actpass',
  'a=mid:0',
  'a=recvonly',
  'a=rtcp-mux',
  'a=rtcp-rsize',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack',
  'a=rtcp-fb:96 nack pli',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:102 H264/90000',
  'a=rtcp-fb:102 nack pli',
  'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  'a=rtpmap:103 rtx/90000',
  'a=fmtp:103 apt=102',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 0 8',
  'c=IN IP4 0.0.0.0',
  'a=ice-ufrag:EsAw',
  'a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1',
  'a=fingerprint:sha-256 0F:74:31:25:CB:A2:13:EC:28:6F:6D:2C:61:FF:5D:C2:BC:B9:DB:3D:98:14:8D:1A:BB:EA:33:0C:A4:60:A8:8E',
  'a=setup:actpass',
  'a=mid:1',
  'a=recvonly',
  'a=rtcp-mux',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:8 PCMA/8000',
  '',
].join('\r\n');

/** A WHIP publisher's offer (OBS, a browser): sendonly H264 and Opus. */
export const PUBLISHER_OFFER = VIEWER_OFFER.replace(/a=recvonly/g, 'a=sendonly').replace(
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103',
  'm=video 9 UDP/TLS/RTP/SAVPF 102 103',
);

export const TRICKLE = [
  'a=ice-ufrag:EsAw',
  'a=ice-pwd:P2uYro0UCOQ4zxjKXaWCBui1',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=mid:0',
  'a=candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host generation 0 ufrag EsAw network-id 1',
  'a=end-of-candidates',
  '',
].join('\r\n');

/** SDP is lines: besides byte damage, whole lines dropped, repeated, swapped or given odd values. */
export function mutatedLines(sample: string): fc.Arbitrary<string> {
  const lines = sample.split('\r\n');
  const edit = fc.oneof(
    fc.tuple(fc.constant('drop' as const), fc.nat(), fc.constant('')),
    fc.tuple(fc.constant('repeat' as const), fc.nat(), fc.constant('')),
    fc.tuple(fc.constant('swap' as const), fc.nat(), fc.nat().map(String)),
    fc.tuple(
      fc.constant('value' as const),
      fc.nat(),
      fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('-1', '4294967296', '', ' ', '%', ':', '/', '0x7f', 'NaN')),
    ),
  );
  return fc.array(edit, { maxLength: 10 }).map((edits) => {
    const out = [...lines];
    for (const [kind, at, value] of edits) {
      if (out.length === 0) break;
      const i = at % out.length;
      if (kind === 'drop') out.splice(i, 1);
      else if (kind === 'repeat') out.splice(i, 0, out[i]!);
      else if (kind === 'swap') [out[i], out[Number(value) % out.length]] = [out[Number(value) % out.length]!, out[i]!];
      else out[i] = out[i]!.replace(/[^ :=/]+$/, value);
    }
    // Some clients end lines with a bare LF.
    return out.join(edits.length % 3 === 0 ? '\n' : '\r\n');
  });
}
