import type { Socket } from 'node:net';
import type { RelayNative } from '../../native/native-addon';

/** Writes bytes to a viewer's socket, in order after everything written to it before. */
export type SocketWriter = (socket: Socket, bytes: Buffer) => void;

/** Node's own write: the way when there is no addon, and for whatever the kernel did not take. */
const streamWrite: SocketWriter = (socket, bytes) => void socket.write(bytes);

/**
 * The socket's descriptor when its bytes may go straight to it: a plain TCP connection (a TLS
 * one must go through its encryption) for which Node holds nothing (no queued or pending write,
 * not corked), so a direct write cannot overtake anything. Undefined otherwise.
 */
function directDescriptor(socket: Socket): number | undefined {
  if (socket.destroyed || !socket.writable || socket.writableLength > 0 || socket.writableCorked > 0) return undefined;
  if ((socket as { encrypted?: boolean }).encrypted) return undefined;
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/**
 * How the RTSP server writes a viewer's picture: with the native addon, straight into the
 * kernel (`relay/native/stream-write.c`) while Node holds nothing for the socket; what the kernel
 * does not take (its buffer is full: a slow viewer) goes to Node's write, which queues it and
 * later writes follow it there until it has drained, so the order never changes. A write Node's
 * stream makes costs a request object, a callback and stream bookkeeping; at a hundred viewers
 * those were more of the relay's time than the system calls themselves. Without the addon,
 * Node's write.
 */
export function createSocketWriter(native: RelayNative | undefined): SocketWriter {
  if (!native) return streamWrite;
  return (socket, bytes) => {
    const fd = directDescriptor(socket);
    const buffer = bytes.buffer;
    if (fd === undefined || !(buffer instanceof ArrayBuffer)) return void socket.write(bytes);
    const taken = native.writeStream(fd, buffer, bytes.byteOffset, bytes.length);
    if (taken === bytes.length) return;
    // Not all taken, or a failed connection (its write through Node fails the same way and says so).
    socket.write(taken > 0 ? bytes.subarray(taken) : bytes);
  };
}
