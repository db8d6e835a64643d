import { createSocket, type Socket } from 'node:dgram';
import { connect, createServer, type AddressInfo, type Server, type Socket as NetSocket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classes, Message, methods, parseMessage } from 'werift';
import type { MuxTarget } from './mux-targets';
import { withLiveness } from './session-liveness';
import { TcpMux } from './tcp-mux';
import { UdpMux } from './udp-mux';
import { holdFor } from '@main/test-support/time';

/** A connectivity check as a browser sends it: a binding request whose USERNAME names the session. */
function check(username: string): Buffer {
  const name = Buffer.from(username);
  const attribute = Buffer.alloc(4 + Math.ceil(name.length / 4) * 4);
  attribute.writeUInt16BE(0x0006, 0);
  attribute.writeUInt16BE(name.length, 2);
  name.copy(attribute, 4);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(0x0001, 0);
  header.writeUInt16BE(attribute.length, 2);
  header.writeUInt32BE(0x2112a442, 4);
  return Buffer.concat([header, attribute]);
}

/** A message as ICE-TCP carries it (RFC 4571): its 2-byte length first. */
const frame = (bytes: Buffer) => Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);

const udp = async (): Promise<Socket> => {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
};
const nextMessage = (socket: Socket, timeoutMs = 1_000) =>
  new Promise<{ data: Buffer; port: number } | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    socket.once('message', (data, from) => {
      clearTimeout(timer);
      resolve({ data, port: from.port });
    });
  });

describe('the shared ICE port routes each viewer to its session by ufrag', () => {
  const closers: Array<() => void> = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  /** A session 'cf73' whose werift stand-in takes ICE-TCP on loopback (`onAgent` gets each connection), behind a TCP mux. */
  async function tcpSession(target: Omit<MuxTarget, 'tcpPort'>, onAgent: (socket: NetSocket) => void) {
    const agent: Server = createServer(onAgent);
    await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
    const mux = await TcpMux.open('127.0.0.1', 0, new Map([['cf73', { ...target, tcpPort: (agent.address() as AddressInfo).port }]]));
    closers.push(
      () => agent.close(),
      () => mux.close(),
    );
    return mux;
  }

  /** A session 'cf73' behind a shared port, and a viewer whose check reached it: werift sees the viewer at `bridgePort`. */
  async function bridgedViewer(events: Partial<MuxTarget> = {}) {
    const agent = await udp(); // stands where werift listens on loopback
    const viewer = await udp();
    const targets = new Map<string, MuxTarget>([['cf73', { udpPort: agent.address().port, ...events }]]);
    const mux = await UdpMux.open('127.0.0.1', 0, targets, 400);
    closers.push(
      () => [agent, viewer].forEach((s) => s.close()),
      () => mux.close(),
    );
    const atAgent = nextMessage(agent);
    viewer.send(check('cf73:hhK8'), mux.port, '127.0.0.1');
    return { agent, viewer, mux, bridgePort: (await atAgent)!.port };
  }

  it('UDP: a check opens the way both ways; unknown ufrags and stray packets go nowhere; silence ends the session', async () => {
    const agent = await udp(); // stands where werift listens on loopback
    const viewer = await udp();
    const stranger = await udp();
    const events: string[] = [];
    const targets = new Map<string, MuxTarget>([
      [
        'cf73',
        { udpPort: agent.address().port, onRemote: (address) => events.push(`remote ${address}`), onGone: () => events.push('gone') },
      ],
    ]);
    const mux = await UdpMux.open('127.0.0.1', 0, targets, 400);
    closers.push(
      () => [agent, viewer, stranger].forEach((s) => s.close()),
      () => mux.close(),
    );

    const atAgent = nextMessage(agent);
    viewer.send(check('cf73:hhK8'), mux.port, '127.0.0.1');
    const arrived = (await atAgent)!;
    expect(arrived.data.equals(check('cf73:hhK8'))).toBe(true);
    expect(events).toEqual([`remote 127.0.0.1:${viewer.address().port}`]);

    // The agent answers the bridge; the viewer sees it come from the shared port.
    const atViewer = nextMessage(viewer);
    agent.send(Buffer.from('dtls hello'), arrived.port, '127.0.0.1');
    expect(await atViewer).toEqual({ data: Buffer.from('dtls hello'), port: mux.port });
    // Media from the known address follows the check's route.
    const media = nextMessage(agent);
    viewer.send(Buffer.from([0x80, 0x60, 1, 2]), mux.port, '127.0.0.1');
    expect((await media)?.data).toEqual(Buffer.from([0x80, 0x60, 1, 2]));

    const nothing = nextMessage(agent, 300);
    stranger.send(check('zzzz:hhK8'), mux.port, '127.0.0.1');
    stranger.send(Buffer.from([0x80, 0x60, 1, 2]), mux.port, '127.0.0.1');
    expect(await nothing).toBeUndefined();

    await vi.waitFor(() => expect(events.at(-1)).toBe('gone'), { timeout: 3_000 });
  });

  it("UDP: werift's answer to a check, made behind the loopback bridge, reaches the viewer naming the viewer's own address", async () => {
    const password = Buffer.from('relays-ice-password-of-22');
    const { agent, viewer, bridgePort } = await bridgedViewer({ icePassword: password });
    const answered = new Message(methods.BINDING, classes.RESPONSE, Buffer.alloc(12, 7))
      .setAttribute('XOR-MAPPED-ADDRESS', ['127.0.0.1', bridgePort])
      .addMessageIntegrity(password)
      .addFingerprint().bytes;
    const atViewer = nextMessage(viewer);
    agent.send(answered, bridgePort, '127.0.0.1');
    const parsed = parseMessage((await atViewer)!.data, password)!;
    expect(parsed.transactionId).toEqual(Buffer.alloc(12, 7));
    expect(parsed.getAttributeValue('XOR-MAPPED-ADDRESS')).toEqual(['127.0.0.1', viewer.address().port]);
    // Anything else from werift goes as it came.
    const other = nextMessage(viewer);
    agent.send(Buffer.from('dtls record'), bridgePort, '127.0.0.1');
    expect((await other)?.data).toEqual(Buffer.from('dtls record'));
  });

  it('UDP: the session hears when its DTLS Finished has left the shared port for the viewer, not before, and not for the clear handshake', async () => {
    const heard: number[] = [];
    let viewerHad = 0;
    const { agent, viewer, bridgePort } = await bridgedViewer({ onFinishedSent: () => heard.push(viewerHad) });
    viewer.on('message', () => viewerHad++);
    /** A DTLS 1.2 record header and body: handshake (22) of the given epoch. */
    const handshake = (epoch: number) => Buffer.concat([Buffer.from([22, 0xfe, 0xfd, 0, epoch, 0, 0, 0, 0, 0, 0, 0, 4]), Buffer.alloc(4)]);

    agent.send(handshake(0), bridgePort, '127.0.0.1');
    await vi.waitFor(() => expect(viewerHad).toBe(1));
    expect(heard).toEqual([]);
    agent.send(handshake(1), bridgePort, '127.0.0.1');
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    // Heard once the datagram was handed to the shared port: the viewer has it by the next turn.
    await vi.waitFor(() => expect(viewerHad).toBe(2));
  });

  it('UDP: media goes straight from the shared port to the viewer behind the bridge werift sees, gathered into one datagram, until that address is gone', async () => {
    const { agent, viewer, mux, bridgePort } = await bridgedViewer();

    expect(mux.directTo('zzzz', bridgePort)).toBeUndefined();
    expect(mux.directTo('cf73', agent.address().port)).toBeUndefined();
    const send = mux.directTo('cf73', bridgePort)!;
    const atViewer = nextMessage(viewer);
    let sent!: () => void;
    const left = new Promise<void>((resolve) => (sent = resolve));
    expect(send.send([Buffer.from('head'), Buffer.from('-payload'), Buffer.from('-tag')], sent)).toBe(true);
    expect(await atViewer).toEqual({ data: Buffer.from('head-payload-tag'), port: mux.port });
    // The socket says when it no longer holds the datagram (its buffer may then be written again).
    await left;

    mux.forget('cf73');
    const nothing = nextMessage(viewer, 300);
    expect(send.send([Buffer.from('late')])).toBe(false);
    expect(await nothing).toBeUndefined();
  });

  it("UDP: once media goes to a viewer, its consent checks are answered on the port with the session's password; before that, and unsigned, werift answers", async () => {
    const agent = await udp();
    const viewer = await udp();
    const password = Buffer.from('the-answers-ice-password');
    const targets = new Map<string, MuxTarget>([['cf73', { udpPort: agent.address().port, icePassword: password }]]);
    const mux = await UdpMux.open('127.0.0.1', 0, targets, 60_000);
    closers.push(
      () => [agent, viewer].forEach((s) => s.close()),
      () => mux.close(),
    );
    const signed = () =>
      new Message(methods.BINDING, classes.REQUEST)
        .setAttribute('USERNAME', 'cf73:hhK8')
        .setAttribute('ICE-CONTROLLING', 1n)
        .addMessageIntegrity(password)
        .addFingerprint().bytes;
    // Before the session sends media: the check goes to werift.
    const atAgent = nextMessage(agent);
    viewer.send(signed(), mux.port, '127.0.0.1');
    const bridgePort = (await atAgent)!.port;
    mux.directTo('cf73', bridgePort);

    const request = signed();
    const atViewer = nextMessage(viewer);
    const notAtAgent = nextMessage(agent, 300);
    viewer.send(request, mux.port, '127.0.0.1');
    const answer = (await atViewer)!;
    expect(answer.port).toBe(mux.port);
    const parsed = parseMessage(answer.data, password)!;
    expect(parsed.messageClass).toBe(classes.RESPONSE);
    expect(parsed.transactionId.equals(request.subarray(8, 20))).toBe(true);
    expect(parsed.getAttributeValue('XOR-MAPPED-ADDRESS')).toEqual(['127.0.0.1', viewer.address().port]);
    expect(await notAtAgent).toBeUndefined();

    // A check the port cannot answer (not signed with the password) still reaches werift.
    const forwarded = nextMessage(agent);
    viewer.send(check('cf73:hhK8'), mux.port, '127.0.0.1');
    expect((await forwarded)?.data.equals(check('cf73:hhK8'))).toBe(true);
  });

  it('TCP: the first framed check picks the session, then bytes pass unchanged both ways; the last connection closing ends it', async () => {
    const received: Buffer[] = [];
    let agentSide: NetSocket | undefined;
    const events: string[] = [];
    const mux = await tcpSession({ onRemote: () => events.push('remote'), onGone: () => events.push('gone') }, (socket) => {
      agentSide = socket;
      socket.on('data', (chunk) => received.push(chunk));
    });

    const viewer = connect(mux.port, '127.0.0.1');
    const back: Buffer[] = [];
    viewer.on('data', (chunk) => back.push(chunk));
    viewer.write(Buffer.concat([frame(check('cf73:hhK8')), frame(Buffer.from('more'))]));
    await vi.waitFor(() =>
      expect(Buffer.concat(received).equals(Buffer.concat([frame(check('cf73:hhK8')), frame(Buffer.from('more'))]))).toBe(true),
    );
    agentSide!.write('answer');
    await vi.waitFor(() => expect(Buffer.concat(back).toString()).toBe('answer'));
    expect(events).toEqual(['remote']);

    viewer.destroy();
    await vi.waitFor(() => expect(events).toEqual(['remote', 'gone']));

    // A connection naming no session is closed without reaching anyone.
    const before = Buffer.concat(received).length;
    const stranger = connect(mux.port, '127.0.0.1');
    const closed = new Promise((resolve) => stranger.on('close', resolve));
    stranger.write(frame(check('zzzz:x')));
    await closed;
    expect(Buffer.concat(received).length).toBe(before);
  });

  it("TCP: werift's framed answer to a check reaches the viewer naming the viewer's own address", async () => {
    const password = Buffer.from('relays-ice-password-of-22');
    let agentSide: NetSocket | undefined;
    const mux = await tcpSession({ icePassword: password }, (socket) => (agentSide = socket));
    const viewer = connect(mux.port, '127.0.0.1');
    closers.push(() => viewer.destroy());
    const back: Buffer[] = [];
    viewer.on('data', (chunk) => back.push(chunk));
    viewer.write(frame(check('cf73:hhK8')));
    await vi.waitFor(() => expect(agentSide).toBeDefined());
    const answered = new Message(methods.BINDING, classes.RESPONSE, Buffer.alloc(12, 7))
      .setAttribute('XOR-MAPPED-ADDRESS', ['127.0.0.1', agentSide!.remotePort!])
      .addMessageIntegrity(password)
      .addFingerprint().bytes;
    agentSide!.write(Buffer.concat([frame(answered), frame(Buffer.from('dtls'))]));
    await vi.waitFor(() => expect(Buffer.concat(back).length).toBeGreaterThanOrEqual(2 + 64 + 2 + 4));
    const received = Buffer.concat(back);
    const parsed = parseMessage(received.subarray(2, 2 + received.readUInt16BE(0)), password)!;
    expect(parsed.getAttributeValue('XOR-MAPPED-ADDRESS')).toEqual(['127.0.0.1', viewer.localPort]);
    expect(received.subarray(2 + received.readUInt16BE(0))).toEqual(frame(Buffer.from('dtls')));
  });

  it('a session checked over UDP and TCP lives on over UDP when the browser drops its unused TCP connection, and ends when UDP falls silent too', async () => {
    const agentUdp = await udp();
    const agentTcp: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => agentTcp.listen(0, '127.0.0.1', resolve));
    const events: string[] = [];
    const targets = new Map<string, MuxTarget>([
      [
        'cf73',
        withLiveness(
          { udpPort: agentUdp.address().port, tcpPort: (agentTcp.address() as AddressInfo).port },
          { onRemote: (_a, transport) => events.push(`remote ${transport}`), onGone: () => events.push('gone') },
        ),
      ],
    ]);
    const udpMux = await UdpMux.open('127.0.0.1', 0, targets, 600);
    const tcpMux = await TcpMux.open('127.0.0.1', 0, targets);
    const viewer = await udp();
    closers.push(
      () => [agentUdp, viewer].forEach((s) => s.close()),
      () => agentTcp.close(),
      () => udpMux.close(),
      () => tcpMux.close(),
    );

    // The browser checks both pairs.
    const checked = nextMessage(agentUdp);
    viewer.send(check('cf73:hhK8'), udpMux.port, '127.0.0.1');
    await checked;
    const tcpViewer = connect(tcpMux.port, '127.0.0.1');
    const spliced = new Promise((resolve) => agentTcp.once('connection', resolve));
    tcpViewer.write(Buffer.concat([Buffer.from([0, check('cf73:hhK8').length]), check('cf73:hhK8')]));
    await spliced;
    // It nominated UDP and closes the TCP connection; media keeps coming over UDP.
    const tcpClosed = new Promise((resolve) => tcpViewer.once('close', resolve));
    tcpViewer.destroy();
    await tcpClosed;
    for (let i = 0; i < 6; i++) {
      const media = nextMessage(agentUdp);
      viewer.send(Buffer.from([0x80, 0x60, 0, i]), udpMux.port, '127.0.0.1');
      expect((await media)?.data).toEqual(Buffer.from([0x80, 0x60, 0, i]));
      await holdFor(200); // media every 200 ms for 1.2 s: longer than the 600 ms consent expiry
    }
    expect(events).toEqual(['remote udp']);

    // The viewer leaves: after the consent expiry over UDP, the session is gone, once.
    await vi.waitFor(() => expect(events).toEqual(['remote udp', 'gone']), { timeout: 3_000, interval: 50 });
  });
});
