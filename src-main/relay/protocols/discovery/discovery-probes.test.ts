import { createSocket, type Socket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { dvripHostIp } from './dvrip-discovery';

// Each discovery endpoint against responders on loopback that answer its probe the way the
// devices do: an ONVIF camera and a printer (WS-Discovery), a Xiongmai DVR (DVRIP search), a
// HomeKit camera and a HomeKit light (mDNS, DNS-SD records). The relay is pointed at them by
// `discovery:`; in a home network the defaults are the protocols' multicast and broadcast groups.

interface Responder {
  socket: Socket;
  port: number;
  probes: Buffer[];
}

async function responder(answer: (probe: Buffer) => Buffer[]): Promise<Responder> {
  const socket = createSocket('udp4');
  const probes: Buffer[] = [];
  socket.on('message', (probe, from) => {
    probes.push(probe);
    for (const reply of answer(probe)) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, port: socket.address().port, probes };
}

const probeMatch = (relatesTo: string, xaddrs: string, scopes: string, types = 'dn:NetworkVideoTransmitter') =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:wsadis="http://schemas.xmlsoap.org/ws/2004/08/addressing" xmlns:d="http://schemas.xmlsoap.org/ws/2005/04/discovery" xmlns:dn="http://www.onvif.org/ver10/network/wsdl"><env:Header><wsadis:MessageID>urn:uuid:9f1c2a3e-0000-4000-8000-00112233aabb</wsadis:MessageID><wsadis:RelatesTo>${relatesTo}</wsadis:RelatesTo><wsadis:To env:mustUnderstand="true">http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous</wsadis:To><wsadis:Action env:mustUnderstand="true">http://schemas.xmlsoap.org/ws/2005/04/discovery/ProbeMatches</wsadis:Action></env:Header><env:Body><d:ProbeMatches><d:ProbeMatch><wsadis:EndpointReference><wsadis:Address>urn:uuid:4b1c2a3e-0000-4000-8000-00112233aabb</wsadis:Address></wsadis:EndpointReference><d:Types>${types}</d:Types><d:Scopes>${scopes}</d:Scopes><d:XAddrs>${xaddrs}</d:XAddrs><d:MetadataVersion>10</d:MetadataVersion></d:ProbeMatch></d:ProbeMatches></env:Body></env:Envelope>`,
  );

function dvripReply(json: object): Buffer {
  const body = Buffer.from(`${JSON.stringify(json)}\n`);
  const header = Buffer.alloc(20);
  header[0] = 0xff;
  header[1] = 0x01;
  header.writeUInt16LE(1531, 14);
  header.writeUInt32LE(body.length, 16);
  return Buffer.concat([header, body]);
}

const hapAnswer = (instance: string, host: string, ip: string, port: number, txt: string[]) =>
  dnsPacket.encode({
    type: 'response',
    id: 0,
    flags: dnsPacket.AUTHORITATIVE_ANSWER,
    answers: [{ type: 'PTR', name: '_hap._tcp.local', ttl: 4500, data: `${instance}._hap._tcp.local` }],
    additionals: [
      { type: 'SRV', name: `${instance}._hap._tcp.local`, ttl: 120, data: { port, target: host } },
      { type: 'TXT', name: `${instance}._hap._tcp.local`, ttl: 4500, data: txt },
      { type: 'A', name: host, ttl: 120, data: ip },
    ],
  });

let onvif: Responder;
let dvrip: Responder;
let mdns: Responder;
let relay: RelayUnderTest;

beforeAll(async () => {
  onvif = await responder((probe) => {
    const id = /MessageID>([^<]+)</.exec(probe.toString())?.[1] ?? '';
    return [
      probeMatch(
        id,
        'http://0.0.0.0:8899/onvif/device_service',
        'onvif://www.onvif.org/type/video_encoder onvif://www.onvif.org/Profile/Streaming onvif://www.onvif.org/name/Garage%20Cam onvif://www.onvif.org/hardware/IPC-G5 onvif://www.onvif.org/location/country/china',
      ),
      probeMatch(id, 'http://127.0.0.1:80/wsd/printer http://[fe80::1]/wsd', 'ldap:///ou=printers', 'wprt:PrintDeviceType'),
    ];
  });
  dvrip = await responder((probe) =>
    probe[0] === 0xff && probe.readUInt16LE(14) === 1530
      ? [
          dvripReply({
            'NetWork.NetCommon': {
              BuildDate: '2019-05-12 10:11:12',
              ChannelNum: 4,
              DeviceType: 1,
              GateWay: '0x0101A8C0',
              HostIP: '0x1E01A8C0',
              HostName: 'NVR-Backyard',
              HttpPort: 80,
              MAC: '00:12:41:aa:bb:cc',
              SN: 'c8a3b1f0e2d4a5b6',
              TCPPort: 34567,
              UDPPort: 34568,
              Version: 'V4.02.R11',
            },
            Ret: 100,
            SessionID: '0x00000000',
          }),
        ]
      : [],
  );
  mdns = await responder((probe) => {
    const question = dnsPacket.decode(probe).questions?.[0];
    if (question?.name !== '_hap._tcp.local') return [];
    return [
      hapAnswer('Doorbell 1A2B', 'Doorbell-1A2B.local', '127.0.0.1', 51826, [
        'c#=3',
        'ff=1',
        'id=4E:21:9A:33:7C:10',
        'md=Aqara Doorbell G4',
        'pv=1.1',
        's#=1',
        'sf=0',
        'ci=18',
      ]),
      hapAnswer('Hallway Light', 'Hallway-Light.local', '127.0.0.1', 51827, [
        'c#=1',
        'ff=0',
        'id=11:22:33:44:55:66',
        'md=Bulb',
        'sf=1',
        'ci=5',
      ]),
    ];
  });
  const discovery = `discovery:\n  onvif: 127.0.0.1:${onvif.port}\n  dvrip: 127.0.0.1:${dvrip.port}\n  mdns: 127.0.0.1:${mdns.port}\n  timeout: 500ms\n`;
  relay = await startRelay('  garage: rtsp://127.0.0.1:9/garage\n  porch: rtsp://127.0.0.1:9/porch\n', discovery);
}, 30_000);

afterAll(async () => {
  for (const r of [onvif, dvrip, mdns]) r?.socket.close();
  await relay?.stop();
});

const sources = async (path: string) => {
  const response = await fetch(`${relay.api}${path}`);
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return ((await response.json()) as { sources: unknown[] }).sources;
};

describe('network discovery', () => {
  it('/api/onvif sends a WS-Discovery Probe for video transmitters and lists the cameras that match (not the printer)', async () => {
    expect(await sources('/api/onvif')).toEqual([
      { name: '127.0.0.1:8899', url: 'onvif://user:pass@127.0.0.1:8899', info: 'Garage Cam IPC-G5' },
    ]);
    const probe = onvif.probes[0]!.toString();
    expect(probe).toContain('http://schemas.xmlsoap.org/ws/2005/04/discovery/Probe');
    expect(probe).toContain('<d:Types>dn:NetworkVideoTransmitter</d:Types>');
    expect(probe).toMatch(/<a:MessageID>urn:uuid:[0-9a-f-]{36}<\/a:MessageID>/);
  });

  it("/api/onvif?src= lists the profiles of one camera, here the relay's own ONVIF server", async () => {
    const src = `onvif://${new URL(relay.api).host}`;
    expect(await sources(`/api/onvif?src=${encodeURIComponent(src)}`)).toEqual([
      { name: 'Relay Console Media relay stream0', url: `${src}?subtype=garage`, info: 'garage' },
      { name: 'Relay Console Media relay stream1', url: `${src}?subtype=porch`, info: 'porch' },
    ]);
    const refused = await fetch(`${relay.api}/api/onvif?src=${encodeURIComponent('onvif://127.0.0.1:9')}`);
    expect(refused.status).toBe(502);
  });

  it('/api/dvrip broadcasts a DVRIP search and lists each DVR by its name and decoded address', async () => {
    expect(dvripHostIp('0x1E01A8C0')).toBe('192.168.1.30');
    expect(await sources('/api/dvrip')).toEqual([
      {
        name: 'NVR-Backyard',
        url: 'dvrip://user:pass@192.168.1.30?channel=0&subtype=0',
        info: 'SN c8a3b1f0e2d4a5b6, 4 channel(s), V4.02.R11',
      },
    ]);
    const probe = dvrip.probes[0]!;
    expect(probe.toString('hex')).toBe('ff00000000000000000000000000fa0500000000');
  });

  it('/api/homekit browses _hap._tcp over mDNS and lists cameras and doorbells, not other accessories', async () => {
    const expected = [
      {
        name: 'Doorbell 1A2B',
        url: 'homekit://127.0.0.1:51826?device_id=4E%3A21%3A9A%3A33%3A7C%3A10&feature=1&status=0',
        info: 'Aqara Doorbell G4',
      },
    ];
    expect(await sources('/api/homekit')).toEqual(expected);
    expect(await sources('/api/discovery/homekit')).toEqual(expected);
    const query = mdns.probes[0]!;
    expect(dnsPacket.decode(query).questions).toEqual([expect.objectContaining({ name: '_hap._tcp.local', type: 'PTR' })]);
    // Class IN with the unicast-response bit.
    expect(query.readUInt16BE(query.length - 2)).toBe(0x8001);
  });

  it('silence is "no sources" (404), and a malformed discovery setting is a 400 naming it', async () => {
    const quiet = await startRelay('', 'discovery:\n  onvif: 127.0.0.1:9\n  timeout: 200ms\n  dvrip: nowhere\n');
    try {
      const none = await fetch(`${quiet.api}/api/onvif`);
      expect([none.status, await none.text()]).toEqual([404, 'no sources']);
      const bad = await fetch(`${quiet.api}/api/dvrip`);
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('discovery.dvrip: nowhere is not an IPv4 address and port');
    } finally {
      await quiet.stop();
    }
  });
});
