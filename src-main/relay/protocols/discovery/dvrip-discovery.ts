import type { DiscoveredSource } from './sources-answer';
import { isBroadcast, udpProbe, type ProbeTarget } from './udp-probe';

// DVRIP ("Sofia", Xiongmai DVRs and cameras) network search: a 20-byte header with message id
// 1530 (IPSEARCH_REQ) and no body; devices answer 1531 with the header and a JSON body.
const HEADER_BYTES = 20;
const SEARCH_REQUEST = 1530;
const SEARCH_REPLY = 1531;

function dvripSearchRequest(): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header[0] = 0xff;
  header.writeUInt16LE(SEARCH_REQUEST, 14);
  return header;
}

interface NetCommon {
  HostIP?: string;
  HostName?: string;
  TCPPort?: number;
  SN?: string;
  ChannelNum?: number;
  Version?: string;
}

/** `0x0A01A8C0` (little-endian, as the devices write it) → `192.168.1.10`. */
export function dvripHostIp(hex: string): string | undefined {
  const match = /^0x([0-9a-f]{8})$/i.exec(hex);
  if (!match) return undefined;
  const bytes = Buffer.from(match[1]!, 'hex');
  return [bytes[3], bytes[2], bytes[1], bytes[0]].join('.');
}

/** One search reply as a source (`dvrip://user:pass@host[:port]?channel=0&subtype=0`, as go2rtc lists it), or nothing if it is not one. */
function dvripReplySource(data: Buffer): DiscoveredSource | undefined {
  if (data.length <= HEADER_BYTES || data[0] !== 0xff || data.readUInt16LE(14) !== SEARCH_REPLY) return undefined;
  // The JSON ends with a newline or NUL the devices add.
  const text = data
    .subarray(HEADER_BYTES)
    .toString('utf8')
    .replace(/[\0\s]+$/, '');
  let common: NetCommon | undefined;
  try {
    common = (JSON.parse(text) as { 'NetWork.NetCommon'?: NetCommon })['NetWork.NetCommon'];
  } catch {
    return undefined;
  }
  const host = common?.HostIP ? dvripHostIp(common.HostIP) : undefined;
  if (!common || !host || !common.HostName) return undefined;
  const port = common.TCPPort && common.TCPPort !== 34567 ? `:${common.TCPPort}` : '';
  const info = [common.SN && `SN ${common.SN}`, common.ChannelNum && `${common.ChannelNum} channel(s)`, common.Version]
    .filter(Boolean)
    .join(', ');
  return { name: common.HostName, url: `dvrip://user:pass@${host}${port}?channel=0&subtype=0`, info: info || ' ' };
}

/**
 * The DVRIP devices on the network. Devices broadcast their answer to the search port, so the
 * probe listens there when it broadcasts; one device asked directly answers the sender.
 */
export async function discoverDvrip(target: ProbeTarget, timeoutMs: number): Promise<DiscoveredSource[]> {
  const replies = await udpProbe({
    target,
    message: dvripSearchRequest(),
    repeat: 3,
    timeoutMs,
    listenPort: isBroadcast(target.host) ? target.port : 0,
  });
  const found = new Map<string, DiscoveredSource>();
  for (const { data } of replies) {
    const source = dvripReplySource(data);
    if (source && !found.has(source.url)) found.set(source.url, source);
  }
  return [...found.values()];
}
