import type { Socket } from 'node:dgram';
import type { Datagram } from '../srtp/srtp-protect';
import type { RelayNative } from '../../../native/native-addon';

const EIO = 5;
/** Datagrams in one call to the addon (its own limit). */
const MAX_BATCH = 256;

/**
 * Sends many datagrams to one address at once from a dgram socket: with the native addon, a
 * viewer's batch (a picture's SRTP packets, in one buffer) is one system call, and each run of
 * equal-sized datagrams one segmentation-offload message; without it, or for datagrams it
 * cannot take (gathered parts, several buffers), dgram's `send` per datagram.
 *
 * Datagrams leave in the order given. When the kernel's send buffer is full, what it did not
 * take is queued by dgram, and later batches go through dgram too until that queue is empty, so
 * nothing overtakes it.
 */
export class BatchSender {
  private readonly spans: Int32Array = new Int32Array(MAX_BATCH * 2);
  /** Datagrams handed to dgram whose callback has not come yet. */
  private queued = 0;
  /** False once the system refused segmentation offload (EIO: a route whose device cannot checksum it), or when told so. */
  private segment: boolean;

  constructor(
    private readonly socket: Socket,
    private readonly native?: { addon: RelayNative; fd: number; segment?: boolean },
  ) {
    this.segment = native?.segment ?? true;
  }

  /** Whether batches leave by the native addon (else one dgram send per datagram). */
  get batched(): boolean {
    return this.native !== undefined;
  }

  /**
   * Sends `datagrams` in order to `address` (dotted IPv4, or its 32-bit number in `address32`
   * for the addon) and `port`; `sent` is called once every one has left the socket (at once when
   * the kernel took them all in the call).
   */
  sendAll(datagrams: readonly Datagram[], port: number, address: string, address32: number, sent?: () => void): void {
    const count = datagrams.length;
    if (count === 0) return void sent?.();
    let taken = this.queued === 0 ? this.sendNative(datagrams, port, address32) : 0;
    if (taken === count) return void sent?.();
    for (; taken < count - 1; taken++) this.sendOne(datagrams[taken]!, port, address);
    this.sendOne(datagrams[count - 1]!, port, address, sent);
  }

  /** One datagram, through dgram (a report, a resend, a DTLS record). */
  sendOne(datagram: Datagram, port: number, address: string, sent?: () => void): void {
    this.queued++;
    // An error (a viewer gone) changes nothing here: the datagram is out of the socket either way.
    this.socket.send(datagram, port, address, () => {
      this.queued--;
      sent?.();
    });
  }

  /** How many of the first datagrams the addon sent (0 when it is not there or cannot take them). */
  private sendNative(datagrams: readonly Datagram[], port: number, address32: number): number {
    const native = this.native;
    const first = datagrams[0]!;
    if (!native || datagrams.length > MAX_BATCH || Array.isArray(first)) return 0;
    const buffer = first.buffer;
    if (!(buffer instanceof ArrayBuffer)) return 0;
    const spans = this.spans;
    for (let i = 0; i < datagrams.length; i++) {
      const datagram = datagrams[i]!;
      if (Array.isArray(datagram) || datagram.buffer !== buffer) return 0;
      spans[2 * i] = datagram.byteOffset;
      spans[2 * i + 1] = datagram.length;
    }
    let taken = native.addon.sendBatch(native.fd, buffer, spans, datagrams.length, address32, port, this.segment);
    if (taken === -EIO && this.segment) {
      this.segment = false;
      taken = native.addon.sendBatch(native.fd, buffer, spans, datagrams.length, address32, port, false);
    }
    // Refused outright (the send buffer is full, the viewer unreachable): dgram queues or reports it.
    return Math.max(0, taken);
  }
}
