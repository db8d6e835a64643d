import { createSocket, type RemoteInfo, type Socket, type SocketOptions } from 'node:dgram';
import { lookup } from 'node:dns';
import { isIPv4 } from 'node:net';
import type { Datagram } from '../srtp/srtp-protect';
import { loadRelayNative, type RelayNative } from '../../../native/native-addon';
import { FanoutPort, type FanoutRoute } from '../srtp/srtp-fanout';
import { BatchSender } from './batch-sender';
import { consentAnswer, readdressedAnswer } from './consent-answer';
import { carriesDtlsFinished } from './dtls-finished';
import { ipv4Number } from './ipv4-number';
import { bindingRequestUsername, mappedAddress, readStunHeader } from './stun';
import type { MuxTargets } from './mux-targets';

/**
 * A viewer silent this long is gone (RFC 7675's consent expiry: browsers send consent checks
 * every few seconds even when they send no media). werift runs ICE lite behind the port and
 * checks nothing itself, so this is what ends a session whose browser vanished.
 */
const CONSENT_EXPIRY_MS = 30_000;
/** Remote addresses one session may have at once (a viewer tries a few; more is someone guessing). */
const MAX_LEGS_PER_SESSION = 8;

/** One viewer address, bridged to the werift session its ufrag named. */
interface Leg {
  ufrag: string;
  socket: Socket;
  lastSeen: number;
  remote: { address: string; port: number };
  /** The remote IPv4 address as a number, as the native sender and the STUN answers take it. */
  address32: number;
  /** The session sends its media here (the pair the viewer nominated): its consent checks are answered on the port. */
  media: boolean;
}

/**
 * Media straight from the shared port to one viewer: `send` one datagram, `sendAll` a batch in
 * its order (one system call with the native sender). Both return false once that viewer
 * address is gone; `sent` is called once the socket no longer holds the bytes (sent, or failed).
 */
export interface DirectSend {
  send(datagram: Datagram, sent?: () => void): boolean;
  sendAll(datagrams: readonly Datagram[], sent?: () => void): boolean;
  /** With the native addon: the port's fan-outs (a track's turn to all its viewers at once) and this viewer's address for them. */
  fanout?: { port: FanoutPort; route: FanoutRoute };
}

/**
 * Every viewer's UDP on one port. The first packet from an address must be an ICE connectivity
 * check: its USERNAME starts with the ufrag of the session it is for. From then on that
 * address's packets (DTLS, SRTP, RTCP, consent checks) go to that session's werift socket on
 * loopback through a socket of their own, and what werift sends back leaves from the shared
 * port, so the viewer only ever sees one address. Once the session sends its media to an
 * address, the port itself answers that address's consent checks and the session reads its
 * SRTCP; werift sees the rest.
 */
export class UdpMux {
  private readonly legs = new Map<string, Leg>();
  private readonly discoveries = new Map<string, (address: { address: string; port: number }) => void>();
  private readonly sweep: NodeJS.Timeout;

  private readonly sender: BatchSender;
  private readonly fanouts: FanoutPort | undefined;

  private constructor(
    private readonly socket: Socket,
    private readonly targets: MuxTargets,
    private readonly consentExpiryMs: number,
    native?: { addon: RelayNative; fd: number },
  ) {
    this.sender = new BatchSender(socket, native);
    this.fanouts = native ? new FanoutPort(native.addon, native.fd) : undefined;
    socket.on('message', (message, remote) => this.fromViewer(message, remote));
    this.sweep = setInterval(() => this.forgetIdle(), consentExpiryMs / 6);
    this.sweep.unref();
  }

  /**
   * Binds the shared port. With the native addon (`../native`) and an IPv4 address, the
   * socket is bound by the addon and adopted by dgram (`bind({ fd })`), so both send on it.
   */
  static async open(
    host: string,
    port: number,
    targets: MuxTargets,
    consentExpiryMs = CONSENT_EXPIRY_MS,
    native: RelayNative | undefined = loadRelayNative(),
  ): Promise<UdpMux> {
    const socket = createSocket({ type: 'udp4', reuseAddr: false, lookup: literalFirst });
    const address = host === '' ? '0.0.0.0' : host;
    const fd = native && isIPv4(address) ? native.bindUdp4(ipv4Number(address), port) : undefined;
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      const bound = () => {
        socket.off('error', reject);
        resolve();
      };
      if (fd === undefined) socket.bind(port, host, bound);
      else socket.bind({ fd }, bound);
    });
    // A viewer that went away makes sends fail (ICMP unreachable): that is its leg's problem, not the port's.
    socket.on('error', () => undefined);
    return new UdpMux(socket, targets, consentExpiryMs, native && fd !== undefined ? { addon: native, fd } : undefined);
  }

  get port(): number {
    return this.socket.address().port;
  }

  private fromViewer(message: Buffer, remote: RemoteInfo): void {
    const key = `${remote.address}:${remote.port}`;
    const username = bindingRequestUsername(message);
    let leg = this.legs.get(key);
    if (username !== undefined) {
      const ufrag = username.split(':')[0]!;
      if (leg?.ufrag !== ufrag) leg = this.newLeg(key, ufrag, remote);
      else if (leg.media && this.answerConsent(leg, message, remote)) return;
    } else if (!leg) {
      this.answerDiscovery(message);
      return;
    }
    if (!leg) return;
    const target = this.targets.get(leg.ufrag);
    if (!target?.udpPort) return;
    leg.lastSeen = Date.now();
    // SRTCP (RFC 5761 5.1.2: second byte 192-223) the session reads itself skips the bridge and werift.
    if (username === undefined && isRtcp(message) && target.onRtcp?.(message)) return;
    leg.socket.send(message, target.udpPort, '127.0.0.1');
  }

  /**
   * A consent check on a session's media path answered here (`consent-answer.ts`) rather than
   * bridged to werift, which has nothing more to learn from it once the pair is in use; false
   * for one the answer leaves to werift.
   */
  private answerConsent(leg: Leg, message: Buffer, remote: RemoteInfo): boolean {
    const password = this.targets.get(leg.ufrag)?.icePassword;
    const { address32 } = leg;
    const answer = password && consentAnswer(message, password, { address32, port: remote.port });
    if (!answer) return false;
    leg.lastSeen = Date.now();
    // A batch of one: with the addon, straight to the kernel (no dgram request and callback).
    this.sender.sendAll([answer], remote.port, remote.address, address32);
    return true;
  }

  private newLeg(key: string, ufrag: string, remote: RemoteInfo): Leg | undefined {
    const target = this.targets.get(ufrag);
    if (!target?.udpPort) return undefined;
    this.closeLeg(key);
    const mine = [...this.legs.entries()].filter(([, leg]) => leg.ufrag === ufrag);
    if (mine.length >= MAX_LEGS_PER_SESSION) this.closeLeg(mine[0]![0]);
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1');
    socket.on('error', () => this.closeLeg(key));
    const viewer = { address32: ipv4Number(remote.address), port: remote.port };
    socket.on('message', (reply, from) => {
      // Only the session's own socket speaks for it.
      const target = this.targets.get(ufrag);
      if (from.port !== target?.udpPort) return;
      // werift's answers to checks name the bridge it saw them come from; the viewer gets its own address.
      const answer = target.icePassword && readdressedAnswer(reply, target.icePassword, viewer);
      this.socket.send(answer || reply, remote.port, remote.address);
      // Media sent straight from the port must not overtake the DTLS Finished on this bridge.
      if (target.onFinishedSent && carriesDtlsFinished(reply)) target.onFinishedSent();
    });
    const leg = {
      ufrag,
      socket,
      lastSeen: Date.now(),
      remote: { address: remote.address, port: remote.port },
      address32: viewer.address32,
      media: false,
    };
    this.legs.set(key, leg);
    target.onRemote?.(key, 'udp');
    return leg;
  }

  private closeLeg(key: string): void {
    const leg = this.legs.get(key);
    if (!leg) return;
    this.legs.delete(key);
    leg.socket.close();
  }

  /**
   * Sends a session's media to the viewer straight from the shared port: the viewer address
   * whose bridge werift sees at `loopbackPort` (the ICE pair the viewer nominated). The sender
   * returns false once that address is gone (another check moved it, or consent expired, or
   * the port closed: the addon must never write to a descriptor number used again).
   */
  directTo(ufrag: string, loopbackPort: number): DirectSend | undefined {
    for (const [key, leg] of this.legs) {
      if (leg.ufrag !== ufrag || boundPort(leg.socket) !== loopbackPort) continue;
      leg.media = true;
      const { address, port } = leg.remote;
      const { address32 } = leg;
      const sender = this.sender;
      const alive = () => this.legs.get(key) === leg;
      return {
        ...(this.fanouts ? { fanout: { port: this.fanouts, route: { address32, port, alive } } } : {}),
        send: (datagram, sent) => {
          if (!alive()) return false;
          sender.sendOne(datagram, port, address, sent);
          return true;
        },
        sendAll: (datagrams, sent) => {
          if (!alive()) return false;
          sender.sendAll(datagrams, port, address, address32, sent);
          return true;
        },
      };
    }
    return undefined;
  }

  /** Forgets every address of a session (it ended). */
  forget(ufrag: string): void {
    for (const [key, leg] of [...this.legs]) if (leg.ufrag === ufrag) this.closeLeg(key);
  }

  private forgetIdle(): void {
    const now = Date.now();
    const expired = new Set<string>();
    for (const [key, leg] of [...this.legs]) {
      if (now - leg.lastSeen <= this.consentExpiryMs) continue;
      this.closeLeg(key);
      expired.add(leg.ufrag);
    }
    const alive = new Set([...this.legs.values()].map((leg) => leg.ufrag));
    for (const ufrag of expired) if (!alive.has(ufrag)) this.targets.get(ufrag)?.onGone?.('udp');
  }

  /**
   * The address a STUN server sees this port as (the public side of a NAT that forwards the
   * port), asked from the shared port itself so the mapping is the one viewers will reach.
   */
  discover(
    server: { host: string; port: number },
    request: { bytes: Buffer; transactionId: string },
    timeoutMs: number,
  ): Promise<{ address: string; port: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.discoveries.delete(request.transactionId);
        reject(new Error(`no answer from STUN server ${server.host}:${server.port} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.discoveries.set(request.transactionId, (address) => {
        clearTimeout(timer);
        this.discoveries.delete(request.transactionId);
        resolve(address);
      });
      this.socket.send(request.bytes, server.port, server.host, (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.discoveries.delete(request.transactionId);
        reject(error);
      });
    });
  }

  private answerDiscovery(message: Buffer): void {
    const header = readStunHeader(message);
    const waiting = header && this.discoveries.get(header.transactionId);
    const address = waiting && mappedAddress(message);
    if (waiting && address) waiting(address);
  }

  close(): void {
    clearInterval(this.sweep);
    for (const key of [...this.legs.keys()]) this.closeLeg(key);
    this.fanouts?.close();
    this.socket.close();
  }
}

/**
 * An address that is already an IPv4 literal (every viewer's) is used as it is, at once: dgram
 * otherwise asks dns.lookup, which answers a literal only on the next tick, once per datagram.
 * Names (STUN servers) are looked up as usual.
 */
const literalFirst: NonNullable<SocketOptions['lookup']> = (hostname, options, callback) => {
  if (isIPv4(hostname)) return void (callback as (error: null, address: string, family: number) => void)(null, hostname, 4);
  lookup(hostname, options, callback);
};

/** RTP version 2 with an RTCP packet type (RFC 5761 5.1.2), as media and DTLS on the port are told apart. */
function isRtcp(message: Buffer): boolean {
  return message.length >= 8 && message[0]! >> 6 === 2 && message[1]! >= 192 && message[1]! <= 223;
}

/** The port a bridge socket is bound to, or undefined while it is not yet (or no longer). */
function boundPort(socket: Socket): number | undefined {
  try {
    return socket.address().port;
  } catch {
    return undefined;
  }
}
