import { connect, createServer, isIPv4, type Server, type Socket } from 'node:net';
import { listen } from '@main/platform/listen';
import { readdressedAnswer } from './consent-answer';
import { FramedAnswers } from './framed-answers';
import { ipv4Number } from './ipv4-number';
import { bindingRequestUsername } from './stun';
import type { MuxTargets } from './mux-targets';

/** A connection must show its first ICE check this soon. */
const FIRST_FRAME_TIMEOUT_MS = 10_000;
/** A connectivity check is a few hundred bytes; a first frame far larger is not one. */
const MAX_FIRST_FRAME = 4096;

/**
 * Every viewer's ICE-TCP on one port (RFC 6544, frames of RFC 4571: a 2-byte length before each
 * message). The first frame must be a connectivity check naming a session by its ufrag; the
 * connection is then spliced to that session's werift listener on loopback, bytes unchanged but
 * for werift's answers to checks, which name the loopback connection it saw and leave naming the
 * viewer's address (as on the UDP port).
 */
export class TcpMux {
  private readonly pipes = new Map<string, Set<Socket>>();

  private constructor(
    private readonly server: Server,
    private readonly targets: MuxTargets,
  ) {
    server.on('connection', (socket) => this.accept(socket));
  }

  static async open(host: string, port: number, targets: MuxTargets): Promise<TcpMux> {
    const server = createServer();
    await listen(server, port, host);
    return new TcpMux(server, targets);
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  private accept(viewer: Socket): void {
    let buffered = Buffer.alloc(0);
    viewer.setTimeout(FIRST_FRAME_TIMEOUT_MS, () => viewer.destroy());
    viewer.on('error', () => viewer.destroy());
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2) return;
      const length = buffered.readUInt16BE(0);
      if (length > MAX_FIRST_FRAME) return void viewer.destroy();
      if (buffered.length < 2 + length) return;
      viewer.off('data', onData);
      viewer.pause();
      viewer.setTimeout(0);
      const ufrag = bindingRequestUsername(buffered.subarray(2, 2 + length))?.split(':')[0];
      const target = ufrag === undefined ? undefined : this.targets.get(ufrag);
      if (!ufrag || !target?.tcpPort) return void viewer.destroy();
      this.splice(viewer, ufrag, target.tcpPort, buffered, target.icePassword);
      target.onRemote?.(`${viewer.remoteAddress}:${viewer.remotePort}`, 'tcp');
    };
    viewer.on('data', onData);
  }

  private splice(viewer: Socket, ufrag: string, port: number, first: Buffer, password: Buffer | undefined): void {
    const agent = connect(port, '127.0.0.1');
    const set = this.pipes.get(ufrag) ?? new Set<Socket>();
    this.pipes.set(ufrag, set);
    set.add(viewer);
    const end = () => {
      if (!set.has(viewer)) return;
      viewer.destroy();
      agent.destroy();
      set.delete(viewer);
      if (set.size > 0 || this.pipes.get(ufrag) !== set) return;
      this.pipes.delete(ufrag);
      // ICE-TCP has no consent of its own to wait for: the viewer's last connection closing ends
      // its TCP path (the session may go on over UDP).
      this.targets.get(ufrag)?.onGone?.('tcp');
    };
    agent.on('error', end).on('close', end);
    viewer.on('close', end);
    agent.write(first);
    viewer.pipe(agent);
    const address = viewer.remoteAddress;
    // An IPv6 viewer's answers go as werift made them (the readdressed answer is IPv4 only).
    if (password && address && isIPv4(address) && viewer.remotePort) {
      const to = { address32: ipv4Number(address), port: viewer.remotePort };
      agent.pipe(new FramedAnswers((answer) => readdressedAnswer(answer, password, to))).pipe(viewer);
    } else agent.pipe(viewer);
    viewer.resume();
  }

  /** Closes every connection of a session (it ended). */
  forget(ufrag: string): void {
    for (const socket of [...(this.pipes.get(ufrag) ?? [])]) socket.destroy();
  }

  close(): void {
    for (const set of this.pipes.values()) for (const socket of set) socket.destroy();
    this.server.close();
  }
}
