import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { candidateLines, hostAddresses, iceUfrag, loopbackPort, withCandidates } from './answer-candidates';

const nic = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  family: 'IPv4',
  internal,
  netmask: '255.255.255.0',
  mac: '00:00:00:00:00:00',
  cidr: null,
});
const interfaces = {
  lo: [nic('127.0.0.1', true)],
  eth0: [nic('192.168.1.20'), { ...nic('fe80::1'), family: 'IPv6' as const, scopeid: 2 }],
  docker0: [nic('172.17.0.1')],
  wlan0: [nic('10.0.0.5')],
};

describe('host candidates as go2rtc users filter them', () => {
  it('one listen address is the only host; every interface otherwise, never Docker, IPv4 only', () => {
    expect(hostAddresses('127.0.0.1', interfaces, {})).toEqual(['127.0.0.1']);
    expect(hostAddresses('0.0.0.0', interfaces, {})).toEqual(['192.168.1.20', '10.0.0.5']);
    expect(hostAddresses('0.0.0.0', interfaces, { loopback: true })).toEqual(['192.168.1.20', '10.0.0.5', '127.0.0.1']);
  });

  it('interfaces, ips and candidates keep only what they name; nothing left means loopback', () => {
    expect(hostAddresses('0.0.0.0', interfaces, { interfaces: ['wlan0'] })).toEqual(['10.0.0.5']);
    expect(hostAddresses('0.0.0.0', interfaces, { ips: ['192.168.1.20'] })).toEqual(['192.168.1.20']);
    expect(hostAddresses('0.0.0.0', interfaces, { candidates: [] })).toEqual(['127.0.0.1']);
  });

  it('lines: UDP before TCP, earlier addresses first, networks filter by transport', () => {
    const lines = candidateLines(
      [
        { ip: '192.168.1.20', port: 8555 },
        { ip: '203.0.113.7', port: 443 },
      ],
      ['udp', 'tcp'],
      {},
    );
    expect(lines).toEqual([
      'candidate:11 1 udp 2130706431 192.168.1.20 8555 typ host',
      'candidate:12 1 tcp 2122317823 192.168.1.20 8555 typ host tcptype passive',
      'candidate:21 1 udp 2130706175 203.0.113.7 443 typ host',
      'candidate:22 1 tcp 2122317567 203.0.113.7 443 typ host tcptype passive',
    ]);
    expect(candidateLines([{ ip: '192.168.1.20', port: 8555 }], ['udp', 'tcp'], { networks: ['tcp4'] })).toEqual([
      'candidate:12 1 tcp 2122317823 192.168.1.20 8555 typ host tcptype passive',
    ]);
  });
});

describe("the answer's candidates", () => {
  const werift = [
    'v=0',
    'o=- 1 0 IN IP4 0.0.0.0',
    's=-',
    't=0 0',
    'a=group:BUNDLE 0 1',
    'm=video 9 UDP/TLS/RTP/SAVPF 96',
    'a=ice-ufrag:cf73',
    'a=candidate:a 1 udp 2130706431 127.0.0.1 40001 typ host',
    'a=candidate:b 1 tcp 1671430143 127.0.0.1 40002 typ host tcptype passive',
    'a=end-of-candidates',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'a=ice-ufrag:cf73',
    'a=candidate:a 1 udp 2130706431 127.0.0.1 40001 typ host',
    '',
  ].join('\r\n');

  it('where werift listens behind the shared port, and the ufrag that routes to it', () => {
    expect([loopbackPort(werift, 'udp'), loopbackPort(werift, 'tcp'), iceUfrag(werift)]).toEqual([40001, 40002, 'cf73']);
  });

  it("werift's candidates give way to the shared port's, in every media section, each closed", () => {
    const sdp = withCandidates(werift, () => false, ['candidate:11 1 udp 2130706431 192.168.1.20 8555 typ host']);
    expect(
      sdp.split('\r\n').filter((line) => line.startsWith('a=candidate') || line.startsWith('m=') || line === 'a=end-of-candidates'),
    ).toEqual([
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'a=candidate:11 1 udp 2130706431 192.168.1.20 8555 typ host',
      'a=end-of-candidates',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=candidate:11 1 udp 2130706431 192.168.1.20 8555 typ host',
      'a=end-of-candidates',
    ]);
    expect(sdp.endsWith('\r\n')).toBe(true);
  });
});
