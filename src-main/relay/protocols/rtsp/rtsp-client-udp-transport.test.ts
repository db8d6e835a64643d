import { describe, expect, it } from 'vitest';
import { formatClientUdpTransport, isUnsupportedTransport, parseServerUdpTransport, UdpNotGrantedError } from './rtsp-client-udp-transport';
import { formatUdpTransport } from './rtsp-udp-transport';

describe("the RTSP client's UDP Transport header", () => {
  it('asks for unicast RTP to its port pair', () => {
    expect(formatClientUdpTransport({ rtpPort: 50000, rtcpPort: 50001 })).toBe('RTP/AVP;unicast;client_port=50000-50001');
  });

  it("reads the server's ports, as the relay's own server and cameras write them", () => {
    expect(
      parseServerUdpTransport(formatUdpTransport({ rtpPort: 50000, rtcpPort: 50001 }, { rtpPort: 6970, rtcpPort: 6971 }, 0xabc)),
    ).toEqual({ server: { rtpPort: 6970, rtcpPort: 6971 } });
    expect(parseServerUdpTransport('RTP/AVP/UDP;unicast;client_port=50000-50001;source=10.0.0.5;server_port=8000;ssrc=1234ABCD')).toEqual({
      server: { rtpPort: 8000, rtcpPort: 8001 },
    });
    // Granted, but the server keeps its ports to itself: nothing can be sent back.
    expect(parseServerUdpTransport('RTP/AVP;unicast;client_port=50000-50001')).toEqual({});
    expect(parseServerUdpTransport('RTP/AVP;unicast;server_port=0-1')).toEqual({});
  });

  it('tells a grant of something else from a UDP grant', () => {
    expect(parseServerUdpTransport('RTP/AVP/TCP;unicast;interleaved=0-1')).toBeUndefined();
    expect(parseServerUdpTransport('RTP/AVP;unicast;interleaved=0-1')).toBeUndefined();
    expect(parseServerUdpTransport('RTP/AVP;multicast;destination=224.1.2.3;port=5000-5001')).toBeUndefined();
    expect(parseServerUdpTransport('')).toBeUndefined();
  });

  it('knows a refusal of UDP when it sees one', () => {
    expect(isUnsupportedTransport(new Error('rtsp: SETUP answered 461 Unsupported Transport'))).toBe(true);
    expect(isUnsupportedTransport(new UdpNotGrantedError('granted TCP'))).toBe(true);
    expect(isUnsupportedTransport(new Error('rtsp: SETUP answered 454 Session Not Found'))).toBe(false);
    expect(isUnsupportedTransport(new Error('rtsp: DESCRIBE answered 461'))).toBe(false);
  });
});
