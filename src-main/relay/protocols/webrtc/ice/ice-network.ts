import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { RTCPeerConnection } from 'werift';
import type { Logger } from '@main/platform/logger';
import { listenFailure } from '@main/platform/listen';
import { parseWebrtcListen, type IceServer, type WebrtcListen, type WebrtcSettings } from '../webrtc-settings';
import {
  candidateLines,
  hostAddresses,
  icePassword,
  iceUfrag,
  loopbackPort,
  networkAllowed,
  withCandidates,
  type Transport,
} from './answer-candidates';
import type { MuxTarget } from './mux-targets';
import type { DirectPath } from '../srtp/werift-media-path';
import { bindingRequest } from './stun';
import { withLiveness, type SessionEvent } from './session-liveness';
import { TcpMux } from './tcp-mux';
import { UdpMux } from './udp-mux';

type PeerConfig = NonNullable<ConstructorParameters<typeof RTCPeerConnection>[0]>;

/** A public address found through STUN, or a name resolved, is good for this long. */
const RESOLVED_TTL_MS = 5 * 60_000;
const STUN_TIMEOUT_MS = 2_000;

/** How viewer sessions meet the network: werift's settings, and the answer's candidates. */
export interface IceNetwork {
  /** The shared port, when there is one (`webrtc.listen`). */
  readonly port?: number;
  readonly transports: Transport[];
  /** The ICE settings of a viewer's peer connection. */
  peerConfig(): PeerConfig;
  /**
   * The answer as viewers get it: candidates of the shared port (or werift's own, filtered),
   * and the session routed from the shared port until `release`.
   */
  publish(localSdp: string, events: Pick<MuxTarget, SessionEvent>): Promise<{ sdp: string; release(): void; direct?: DirectPath }>;
  /** Handed to clients (WHEP/WHIP `Link` headers) so they can find their own public address. */
  readonly iceServers: IceServer[];
  close(): void;
}

/** The STUN servers of `ice_servers` as host and port (`stun:host:port`, port 3478 by default). */
function stunServers(iceServers: IceServer[]): Array<{ host: string; port: number }> {
  return iceServers
    .flatMap((server) => (Array.isArray(server.urls) ? server.urls : [server.urls]))
    .filter((url) => url.startsWith('stun:'))
    .map((url) => {
      const [host = '', port] = url.slice(5).split('?')[0]!.split(':');
      return { host, port: Number(port ?? 3478) };
    });
}

async function openMux(listen: WebrtcListen, targets: Map<string, MuxTarget>): Promise<{ udp?: UdpMux; tcp?: TcpMux }> {
  // Port 0 (tests) picks a free UDP port first and TCP follows it; if TCP has it taken, try again.
  for (let attempt = 0; ; attempt++) {
    const udp = listen.udp ? await UdpMux.open(listen.host, listen.port, targets) : undefined;
    try {
      const tcp = listen.tcp ? await TcpMux.open(listen.host, udp?.port ?? listen.port, targets) : undefined;
      return { udp, tcp };
    } catch (error) {
      udp?.close();
      if (listen.port !== 0 || attempt >= 5) throw error;
    }
  }
}

/**
 * Opens `webrtc.listen`: one UDP socket and one TCP listener on the same port for every viewer
 * (werift then runs ICE lite on loopback behind it), or nothing when it is empty, leaving each
 * viewer its own werift port. A port in use is logged and the relay goes on per-viewer.
 */
export async function openIceNetwork(settings: WebrtcSettings, logger: Logger): Promise<IceNetwork> {
  const listen = parseWebrtcListen(settings.listen);
  const targets = new Map<string, MuxTarget>();
  let mux: { udp?: UdpMux; tcp?: TcpMux } = {};
  if (listen) {
    mux = await openMux(listen, targets).catch((error: unknown) => {
      const why = listenFailure(error, settings.listen, 'change webrtc.listen (an empty value gives each viewer a port of its own)');
      logger.error(`WebRTC port not opened: ${why.message}; viewers get ports of their own`);
      return {};
    });
  }
  const { udp, tcp } = mux;
  const port = udp?.port ?? tcp?.port;
  const transports: Transport[] = [...(udp ? ['udp' as const] : []), ...(tcp ? ['tcp' as const] : [])];
  const resolved = new Map<string, { ip?: string; at: number }>();
  const { filters } = settings;

  /** `stun:8555` becomes the public address STUN servers see; a name becomes its address. */
  async function resolveConfigured(entry: string): Promise<{ ip: string; port: number } | undefined> {
    const at = entry.lastIndexOf(':');
    const host = entry.slice(0, at);
    const entryPort = Number(entry.slice(at + 1));
    if (!Number.isInteger(entryPort) || entryPort <= 0) return undefined;
    if (isIPv4(host)) return { ip: host, port: entryPort };
    const cached = resolved.get(host);
    if (cached && Date.now() - cached.at < RESOLVED_TTL_MS) return cached.ip ? { ip: cached.ip, port: entryPort } : undefined;
    let ip: string | undefined;
    if (host === 'stun') {
      for (const server of stunServers(settings.ice_servers)) {
        if (!udp || ip) break;
        ip = await udp.discover(server, bindingRequest(), STUN_TIMEOUT_MS).then(
          (found) => found.address,
          (error: Error) =>
            void logger.warn('public address not found through STUN', { server: `${server.host}:${server.port}`, error: error.message }),
        );
      }
      if (!udp) logger.warn(`candidate ${entry} needs the UDP port of webrtc.listen to ask a STUN server from`);
    } else {
      ip = await lookup(host, { family: 4 }).then(
        (found) => found.address,
        () => void logger.warn('candidate host not resolved', { candidate: entry }),
      );
    }
    resolved.set(host, { ip, at: Date.now() });
    return ip ? { ip, port: entryPort } : undefined;
  }

  async function configured(): Promise<Array<{ ip: string; port: number }>> {
    const found = await Promise.all(settings.candidates.map(resolveConfigured));
    return found.filter((entry): entry is { ip: string; port: number } => entry !== undefined);
  }

  return {
    port,
    transports,
    iceServers: settings.ice_servers,
    peerConfig() {
      if (udp) {
        return {
          iceLite: true,
          iceUseIpv4: false,
          iceUseIpv6: false,
          iceAdditionalHostAddresses: ['127.0.0.1'],
          iceInterfaceAddresses: { udp4: '127.0.0.1' },
          iceUseTcp: Boolean(tcp),
        };
      }
      return {
        iceUseIpv6: false,
        iceAdditionalHostAddresses: ['127.0.0.1'],
        iceUseTcp: Boolean(tcp),
        ...(filters.udp_ports ? { icePortRange: filters.udp_ports } : {}),
      };
    },
    async publish(localSdp, events) {
      const allowedHosts = new Set([...hostAddresses('0.0.0.0', networkInterfaces(), filters), '127.0.0.1']);
      // werift's own UDP candidates stay only when the shared port has no UDP; its TCP never.
      const keep = (c: { ip: string; transport: Transport; type: string }) =>
        !udp && c.transport === 'udp' && networkAllowed(filters, c.transport, c.ip) && (c.type !== 'host' || allowedHosts.has(c.ip));
      if (!port) return { sdp: withCandidates(localSdp, keep, []), release: () => undefined };

      const ufrag = iceUfrag(localSdp);
      const hosts = hostAddresses(listen!.host, networkInterfaces(), filters).map((ip) => ({ ip, port }));
      const lines = candidateLines([...hosts, ...(await configured())], transports, filters);
      if (!ufrag) return { sdp: withCandidates(localSdp, keep, lines), release: () => undefined };
      const password = icePassword(localSdp);
      const target = {
        udpPort: loopbackPort(localSdp, 'udp'),
        tcpPort: loopbackPort(localSdp, 'tcp'),
        ...(password ? { icePassword: Buffer.from(password) } : {}),
      };
      targets.set(ufrag, withLiveness(target, events));
      return {
        sdp: withCandidates(localSdp, keep, lines),
        ...(udp ? { direct: (loopbackPort: number) => udp.directTo(ufrag, loopbackPort) } : {}),
        release() {
          targets.delete(ufrag);
          udp?.forget(ufrag);
          tcp?.forget(ufrag);
        },
      };
    },
    close() {
      udp?.close();
      tcp?.close();
      targets.clear();
    },
  };
}
