import type { Consumer } from '../../core/consumer';
import type { MediaRequest } from '../../core/negotiation';
import type { ConnectionInfo } from '../../core/producer';
import type { PacketSink } from '../../core/track';

/**
 * A consumer that takes the tracks a preload asks for and lets the packets go: while it is
 * attached the stream's sources stay connected, so the first real viewer starts at once from
 * a warm GOP (go2rtc's `preload`).
 */
export class PreloadConsumer implements Consumer {
  private closedWith: string | undefined;

  constructor(
    readonly requests: MediaRequest[],
    private readonly onClosed: (reason: string) => void,
  ) {}

  attach(): PacketSink {
    return { write: () => true, onDrain: () => undefined };
  }

  info(): ConnectionInfo {
    return { format_name: 'preload', protocol: 'preload', remote_addr: '127.0.0.1' };
  }

  close(reason: string): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = reason;
    this.onClosed(reason);
  }
}
