import { randomUUID } from 'node:crypto';
import type { RemoteInfo } from 'node:dgram';
import type { DiscoveredSource } from './sources-answer';
import { xmlTags } from '../onvif/xml-tags';
import { udpProbe, type ProbeTarget } from './udp-probe';

/** A WS-Discovery Probe for video transmitters (ONVIF Core, 7.3: discovery of network video devices). */
function wsDiscoveryProbe(messageId = randomUUID()): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://schemas.xmlsoap.org/ws/2004/08/addressing" xmlns:d="http://schemas.xmlsoap.org/ws/2005/04/discovery" xmlns:dn="http://www.onvif.org/ver10/network/wsdl"><s:Header><a:Action s:mustUnderstand="1">http://schemas.xmlsoap.org/ws/2005/04/discovery/Probe</a:Action><a:MessageID>urn:uuid:${messageId}</a:MessageID><a:ReplyTo><a:Address>http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous</a:Address></a:ReplyTo><a:To s:mustUnderstand="1">urn:schemas-xmlsoap-org:ws:2005:04:discovery</a:To></s:Header><s:Body><d:Probe><d:Types>dn:NetworkVideoTransmitter</d:Types></d:Probe></s:Body></s:Envelope>`,
  );
}

/** The text right after the first `<tag ...>`, up to the next tag (one pass: see onvif/xml-tags.ts). */
function tagText(xml: string, name: string): string {
  const tags = xmlTags(xml);
  for (const tag of tags) {
    if (tag.name !== name || tag.closing) continue;
    const next = tags.next();
    return xml.slice(tag.end, next.done ? xml.length : next.value.start).trim();
  }
  return '';
}

function scope(scopes: string[], prefix: string): string {
  const value = scopes.find((s) => s.startsWith(prefix))?.slice(prefix.length) ?? '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * One ProbeMatch as a source to add: `onvif://user:pass@host[:port][/path]` (the login to fill
 * in, as go2rtc lists it), named by its address, described by the name and hardware scopes.
 * Not a video transmitter (a printer answering the probe), or no http address: nothing.
 */
export function probeMatchSource(xml: string, from: RemoteInfo): DiscoveredSource | undefined {
  const scopes = tagText(xml, 'Scopes').split(/\s+/);
  const camera = /NetworkVideoTransmitter/.test(tagText(xml, 'Types')) || scopes.some((s) => s.startsWith('onvif://www.onvif.org/'));
  if (!/ProbeMatch/.test(xml) || !camera) return undefined;
  const address = tagText(xml, 'XAddrs')
    .split(/\s+/)
    .find((a) => a.startsWith('http://'));
  if (!address) return undefined;
  let url: URL;
  try {
    // Some cameras announce 0.0.0.0: the address they answered from is the one that works.
    url = new URL(address.replace(/^http:\/\/0\.0\.0\.0/, `http://${from.address}`));
  } catch {
    return undefined;
  }
  const path = url.pathname === '/onvif/device_service' || url.pathname === '/' ? '' : url.pathname;
  const info = [scope(scopes, 'onvif://www.onvif.org/name/'), scope(scopes, 'onvif://www.onvif.org/hardware/')].filter(Boolean).join(' ');
  return { name: url.host, url: `onvif://user:pass@${url.host}${path}`, info: info || ' ' };
}

/** The ONVIF cameras that answer a WS-Discovery probe, one per address. */
export async function discoverOnvif(target: ProbeTarget, timeoutMs: number): Promise<DiscoveredSource[]> {
  const replies = await udpProbe({ target, message: wsDiscoveryProbe(), repeat: 2, timeoutMs });
  const found = new Map<string, DiscoveredSource>();
  for (const { data, from } of replies) {
    const source = probeMatchSource(data.toString('utf8'), from);
    if (source && !found.has(source.url)) found.set(source.url, source);
  }
  return [...found.values()];
}
