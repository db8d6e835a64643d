import type { Consumer } from './consumer';
import { describeCodec, describeMedia, type Codec, type Media } from './media';
import { CodecMismatchError } from './negotiation';
import type { ConnectionInfo, ProducerConnection } from './producer';
import type { RtpPacket } from './rtp-packet';
import type { SourceRunner } from './source-runner';

export class NoBackchannelError extends Error {
  override name = 'NoBackchannelError';
}

/**
 * A stream's way back to its source (two-way audio to a camera's speaker). While held, it keeps
 * the source connected like a viewer would, and shows in the stream's consumers.
 */
export class BackchannelHold implements Consumer {
  readonly requests = [];
  private readonly closeListeners: Array<(reason: string) => void> = [];
  private released = false;
  private bytes = 0;
  private packets = 0;

  constructor(
    private readonly runner: SourceRunner,
    private readonly mediaIndex: number,
    /** The source's `sendonly` media: the codecs it accepts, in its order of preference. */
    readonly media: Media,
    private readonly label: ConnectionInfo,
    private readonly onRelease: (hold: BackchannelHold) => void,
  ) {}

  attach(): never {
    throw new Error('a backchannel takes no tracks');
  }

  send(packet: RtpPacket): boolean {
    if (this.released) return false;
    const sent = this.runner.sendBackchannel(this.mediaIndex, packet);
    if (sent) {
      this.packets++;
      this.bytes += packet.payload.length;
    }
    return sent;
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  /** The stream ends the backchannel (deleted, another source plays into it). */
  close(reason: string): void {
    this.released = true;
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }

  /** The player is done (its source ended): the stream may let the camera go. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.closeListeners.length = 0;
    this.onRelease(this);
  }

  info(): ConnectionInfo {
    return {
      ...this.label,
      medias: [describeMedia(this.media)],
      bytes_send: this.bytes,
      senders: [{ id: 0, codec: this.media.codecs[0]?.name, packets: this.packets, bytes: this.bytes, drops: 0 }],
    };
  }
}

/** The first audio media of `source` whose codec the backchannel takes, in the backchannel's order. */
function matchBackchannel(backchannel: Media, source: readonly Media[]): { mediaIndex: number; codec: Codec } | undefined {
  for (const wanted of backchannel.codecs) {
    for (const [mediaIndex, media] of source.entries()) {
      if (media.kind !== backchannel.kind || media.direction !== 'recvonly') continue;
      const hit = media.codecs.find(
        (c) => c.name === wanted.name && c.clockRate === wanted.clockRate && (c.channels ?? 1) === (wanted.channels ?? 1),
      );
      if (hit) return { mediaIndex, codec: wanted };
    }
  }
  return undefined;
}

/**
 * Plays a dialed source into a backchannel until the source ends or the stream takes the
 * backchannel away: packets of the matching media go to the camera with its payload type.
 */
export function playIntoBackchannel(hold: BackchannelHold, connection: ProducerConnection, streamName: string): void {
  const match = matchBackchannel(hold.media, connection.medias);
  if (!match) {
    connection.close();
    hold.release();
    const has = connection.medias
      .filter((m) => m.direction === 'recvonly')
      .map((m) => `${m.kind} ${m.codecs.map(describeCodec).join('/')}`);
    throw new CodecMismatchError(
      `codecs not matched: the source has ${has.join(', ') || 'no media'}; the two-way audio of stream ${streamName} accepts ${hold.media.codecs.map(describeCodec).join(', ')}`,
    );
  }
  hold.onClose(() => connection.close());
  connection.start((index, packet) => {
    if (index === match.mediaIndex) hold.send({ ...packet, payloadType: match.codec.payloadType });
  });
  void connection.closed.then(() => hold.release());
}
