import * as dnsPacket from 'dns-packet';
import type { DiscoveredSource } from './sources-answer';
import { udpProbe, type ProbeTarget } from './udp-probe';

const HAP_SERVICE = '_hap._tcp.local';
// HomeKit accessory categories (HAP spec, table 12-3) that carry video.
const CAMERA_CATEGORIES = new Set(['17', '18']);

/**
 * A DNS-SD browse for HomeKit accessories. Sent from an ephemeral port it is a "legacy unicast"
 * query (RFC 6762, 6.7) that responders answer to the sender; the QU bit (5.4) says so again
 * for responders that only look at it. dns-packet cannot write that bit, so it is set here.
 */
function hapBrowseQuery(): Buffer {
  const query = dnsPacket.encode({ type: 'query', id: 0, flags: 0, questions: [{ name: HAP_SERVICE, type: 'PTR', class: 'IN' }] });
  query.writeUInt16BE(0x8001, query.length - 2);
  return query;
}

interface Instance {
  name: string;
  host?: string;
  port?: number;
  txt: Record<string, string>;
}

function txtEntries(data: unknown): Record<string, string> {
  const parts = Array.isArray(data) ? data : [data];
  const entries: Record<string, string> = {};
  for (const part of parts) {
    const text = Buffer.isBuffer(part) ? part.toString('utf8') : String(part);
    const at = text.indexOf('=');
    if (at > 0) entries[text.slice(0, at)] = text.slice(at + 1);
  }
  return entries;
}

/**
 * The HomeKit cameras and doorbells in mDNS answers: PTR names the instance, SRV its host and
 * port, TXT its id (`id`), model (`md`), category (`ci`) and flags (`ff`, `sf`), A its address.
 * Listed as go2rtc does, `homekit://ip:port?device_id=...&feature=...&status=...`.
 */
function hapSources(packets: Buffer[], fromAddress: string[] = []): DiscoveredSource[] {
  const instances = new Map<string, Instance>();
  const addresses = new Map<string, string>();
  const instance = (name: string) => instances.get(name) ?? instances.set(name, { name, txt: {} }).get(name)!;
  packets.forEach((packet, index) => {
    let decoded: dnsPacket.Packet;
    try {
      decoded = dnsPacket.decode(packet);
    } catch {
      return;
    }
    for (const record of [...(decoded.answers ?? []), ...(decoded.additionals ?? [])]) {
      if (record.type === 'PTR' && record.name === HAP_SERVICE) instance(record.data);
      else if (record.type === 'SRV' && record.name.endsWith(`.${HAP_SERVICE}`))
        Object.assign(instance(record.name), { host: record.data.target, port: record.data.port });
      else if (record.type === 'TXT' && record.name.endsWith(`.${HAP_SERVICE}`))
        Object.assign(instance(record.name).txt, txtEntries(record.data));
      else if (record.type === 'A') addresses.set(record.name, record.data);
    }
    // An answer without an A record: the accessory is at the address it answered from.
    for (const item of instances.values())
      if (item.host && !addresses.has(item.host) && fromAddress[index]) addresses.set(item.host, fromAddress[index]!);
  });
  const sources: DiscoveredSource[] = [];
  for (const item of instances.values()) {
    const ip = item.host ? addresses.get(item.host) : undefined;
    if (!ip || !item.port || !item.txt.id || !CAMERA_CATEGORIES.has(item.txt.ci ?? '')) continue;
    const query = new URLSearchParams({ device_id: item.txt.id, feature: item.txt.ff ?? '', status: item.txt.sf ?? '' });
    sources.push({
      name: item.name.slice(0, -HAP_SERVICE.length - 1),
      url: `homekit://${ip}:${item.port}?${query}`,
      info: item.txt.md ?? ' ',
    });
  }
  return sources;
}

/** The HomeKit cameras that answer an mDNS browse for `_hap._tcp`. */
export async function discoverHomekit(target: ProbeTarget, timeoutMs: number): Promise<DiscoveredSource[]> {
  const replies = await udpProbe({ target, message: hapBrowseQuery(), repeat: 2, timeoutMs });
  return hapSources(
    replies.map((r) => r.data),
    replies.map((r) => r.from.address),
  );
}
