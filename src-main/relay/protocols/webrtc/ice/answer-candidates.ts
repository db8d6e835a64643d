import type { NetworkInterfaceInfo } from 'node:os';
import type { WebrtcSettings } from '../webrtc-settings';

export type Transport = 'udp' | 'tcp';
type Filters = WebrtcSettings['filters'];

/** One candidate line of an answer, without its `a=`. */
export interface Candidate {
  ip: string;
  port: number;
  transport: Transport;
  /** Only host candidates are filtered (go2rtc's rules); srflx/relay pass. */
  type: string;
  line: string;
}

/** Docker's default networks (172.16.0.0/12): nobody outside the container reaches them; go2rtc never offers them either. */
function isDockerLike(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 172 && b !== undefined && b >= 16 && b <= 31;
}

const isIpv6 = (ip: string) => ip.includes(':');

/**
 * The addresses of this machine that host candidates are made of: the listen host when it is
 * one address, else every IPv4 interface the filters keep (by interface name, IP, the
 * candidates list), never Docker's, and loopback when asked for or when that is all there is.
 */
export function hostAddresses(listenHost: string, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>, filters: Filters): string[] {
  if (listenHost !== '0.0.0.0' && listenHost !== '::') return [listenHost];
  const found: string[] = [];
  // Interface names are ASCII: code-unit order, without mapping ICU's collation data for it.
  for (const [name, infos] of Object.entries(interfaces).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (filters.interfaces && !filters.interfaces.includes(name)) continue;
    for (const info of infos ?? []) {
      if (info.family !== 'IPv4' || info.internal || isDockerLike(info.address)) continue;
      if (filters.ips && !filters.ips.includes(info.address)) continue;
      if (filters.candidates && !filters.candidates.includes(info.address)) continue;
      found.push(info.address);
    }
  }
  if (filters.loopback || found.length === 0) found.push('127.0.0.1');
  return [...new Set(found)];
}

/** Whether go2rtc's `networks` filter lets a candidate of this transport and address through. */
export function networkAllowed(filters: Filters, transport: Transport, ip: string): boolean {
  return !filters.networks || filters.networks.includes(`${transport}${isIpv6(ip) ? '6' : '4'}`);
}

/**
 * RFC 8445 priority of a host candidate: UDP before TCP, and within each the earlier address
 * first (the machine's own before configured ones, which come in the order written).
 */
function priority(transport: Transport, index: number): number {
  const local = transport === 'udp' ? 65535 - index : 32767 - index;
  return 126 * 2 ** 24 + Math.max(0, local) * 2 ** 8 + 255;
}

/** The candidate lines for addresses that meet the relay's shared ICE port. */
export function candidateLines(addresses: Array<{ ip: string; port: number }>, transports: Transport[], filters: Filters): string[] {
  const lines: string[] = [];
  addresses.forEach(({ ip, port }, index) => {
    for (const transport of transports) {
      if (!networkAllowed(filters, transport, ip)) continue;
      const foundation = `${index + 1}${transport === 'udp' ? 1 : 2}`;
      const tail = transport === 'tcp' ? ' tcptype passive' : '';
      lines.push(`candidate:${foundation} 1 ${transport} ${priority(transport, index)} ${ip} ${port} typ host${tail}`);
    }
  });
  return lines;
}

/** Parses one `candidate:` line (with or without `a=`); undefined for one it cannot read. */
function parseCandidate(line: string): Candidate | undefined {
  const text = line.replace(/^a=/, '').trim();
  const parts = text.split(/\s+/);
  if (parts.length < 8 || !parts[0]!.startsWith('candidate:') || parts[6] !== 'typ') return undefined;
  const transport = parts[2]!.toLowerCase();
  if (transport !== 'udp' && transport !== 'tcp') return undefined;
  return { ip: parts[4]!, port: Number(parts[5]), transport, type: parts[7]!, line: text };
}

/**
 * The answer with its candidates replaced: werift's own (on loopback, behind the shared port,
 * or its per-viewer ones filtered) give way to `lines`, in every media section, each section
 * closed with end-of-candidates (everything is known: viewers need no trickle from the relay).
 */
export function withCandidates(sdp: string, keep: (candidate: Candidate) => boolean, lines: string[]): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const out: string[] = [];
  let inMedia = false;
  const closeMedia = () => {
    if (!inMedia) return;
    for (const line of lines) out.push(`a=${line}`);
    out.push('a=end-of-candidates');
  };
  for (const line of sdp.split(/\r?\n/)) {
    if (line === '') continue;
    if (line.startsWith('m=')) {
      closeMedia();
      inMedia = true;
    }
    if (line === 'a=end-of-candidates') continue;
    if (line.startsWith('a=candidate:')) {
      const candidate = parseCandidate(line);
      if (!candidate || !keep(candidate)) continue;
      if (lines.includes(candidate.line)) continue;
    }
    out.push(line);
  }
  closeMedia();
  return out.join(eol) + eol;
}

/** Where werift listens for a transport on loopback (behind the shared port), from its own answer. */
export function loopbackPort(sdp: string, transport: Transport): number | undefined {
  for (const line of sdp.split(/\r?\n/)) {
    const candidate = line.startsWith('a=candidate:') ? parseCandidate(line) : undefined;
    if (!candidate || candidate.transport !== transport || candidate.ip !== '127.0.0.1' || candidate.type !== 'host') continue;
    if (transport === 'tcp' && !/tcptype passive/.test(candidate.line)) continue;
    return candidate.port;
  }
  return undefined;
}

/** The answer's ICE username fragment: the first part of every USERNAME a viewer's checks carry. */
export function iceUfrag(sdp: string): string | undefined {
  return /^a=ice-ufrag:(\S+)/m.exec(sdp)?.[1];
}

/** The ICE password of an SDP (its first `a=ice-pwd`), or undefined. */
export function icePassword(sdp: string): string | undefined {
  return /^a=ice-pwd:(\S+)/m.exec(sdp)?.[1];
}
