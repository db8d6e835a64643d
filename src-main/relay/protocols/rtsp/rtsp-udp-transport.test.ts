import { describe, expect, it } from 'vitest';
import { chooseTransport, formatUdpTransport, normalizeAddress } from './rtsp-udp-transport';

const peer = '::ffff:127.0.0.1';

describe('SETUP Transport header', () => {
  it('reads UDP unicast as ffmpeg, VLC and live555 send it', () => {
    expect(chooseTransport('RTP/AVP/UDP;unicast;client_port=5000-5001', peer)).toEqual({
      kind: 'udp',
      rtpPort: 5000,
      rtcpPort: 5001,
      record: false,
    });
    expect(chooseTransport('RTP/AVP;unicast;client_port=6970-6971;mode="PLAY"', peer)).toEqual({
      kind: 'udp',
      rtpPort: 6970,
      rtcpPort: 6971,
      record: false,
    });
    expect(chooseTransport('RTP/AVP;unicast;client_port=7000', peer)).toMatchObject({ rtpPort: 7000, rtcpPort: 7001 });
    expect(chooseTransport('RTP/AVP/UDP;unicast;client_port=5000-5001;mode=record', peer)).toMatchObject({ kind: 'udp', record: true });
  });

  it('reads TCP interleaved as before', () => {
    expect(chooseTransport('RTP/AVP/TCP;unicast;interleaved=2-3', peer)).toEqual({ kind: 'tcp', rtpChannel: 2, rtcpChannel: 3 });
    expect(chooseTransport('RTP/AVP/TCP;unicast;interleaved=4', peer)).toEqual({ kind: 'tcp', rtpChannel: 4, rtcpChannel: 5 });
    expect(chooseTransport('RTP/AVP/TCP;unicast', peer)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/interleaved/) });
  });

  it('sends only to the client itself: another destination and multicast are refused', () => {
    expect(chooseTransport('RTP/AVP;unicast;destination=10.1.2.3;client_port=5000-5001', peer)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/10\.1\.2\.3 is not the client's own address/),
    });
    expect(chooseTransport('RTP/AVP;unicast;destination=example.com;client_port=5000-5001', peer)).toMatchObject({ kind: 'refused' });
    expect(chooseTransport('RTP/AVP;multicast;client_port=5000-5001', peer)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/multicast/),
    });
    expect(chooseTransport('RTP/AVP;unicast;destination=127.0.0.1;client_port=5000-5001', peer)).toMatchObject({ kind: 'udp' });
  });

  it('takes the first offer it serves, and refuses with the first reason otherwise', () => {
    expect(chooseTransport('RTP/AVP;multicast;port=5000-5001, RTP/AVP;unicast;client_port=6000-6001', peer)).toMatchObject({
      kind: 'udp',
      rtpPort: 6000,
    });
    expect(chooseTransport('RTP/SAVP;unicast;client_port=1-2, RTP/AVP;multicast', peer)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/RTP\/SAVP/),
    });
    expect(chooseTransport('', peer)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/missing/) });
  });

  it('refuses ports that are not a port pair', () => {
    for (const ports of ['0-1', '70000-70001', 'abc', '5000-', '']) {
      expect(chooseTransport(`RTP/AVP;unicast;client_port=${ports}`, peer)).toMatchObject({ kind: 'refused' });
    }
    expect(chooseTransport('RTP/AVP;unicast', peer)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/client_port/) });
  });

  it('answers with both port pairs and an 8-digit SSRC', () => {
    expect(formatUdpTransport({ rtpPort: 5000, rtcpPort: 5001 }, { rtpPort: 40000, rtcpPort: 40001 }, 0xabc)).toBe(
      'RTP/AVP;unicast;client_port=5000-5001;server_port=40000-40001;ssrc=00000ABC',
    );
  });

  it('compares IPv4-mapped and plain addresses as one', () => {
    expect(normalizeAddress('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeAddress('FE80::1')).toBe('fe80::1');
  });
});
