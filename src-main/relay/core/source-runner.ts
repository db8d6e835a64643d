import type { Logger } from '../../platform/logger';
import { reconnectDelayMs } from './backoff';
import type { Media } from './media';
import type { RtpPacket } from './rtp-packet';
import type { ConnectionInfo, ProducerConnection, SchemeHandler } from './producer';
import { Track, type TrackOptions } from './track';
import { codecStats } from '../media/codecs/codec-stats';
import { isDialRefusal } from './dial-refusal';

export type SourceState = 'idle' | 'dialing' | 'running' | 'waiting' | 'closed';

export interface SourceRunnerOptions {
  url: string;
  streamName: string;
  handler: SchemeHandler;
  logger: Logger;
  track: TrackOptions;
  /** A pushed source (RTSP publish, POSTed upload) is already connected and never redialed. */
  pushed?: ProducerConnection;
  /** How long a first dial keeps retrying (a timeout, a reset) before the waiting consumer gets an error. */
  firstDialBudgetMs?: number;
  /** Timers are injectable so reconnect pacing is testable. */
  delay?: (attempt: number) => number;
  onEnded?: () => void;
}

/**
 * One source of a stream: dials it when a consumer needs it, keeps its tracks across
 * reconnects (consumers keep going when a camera drops and comes back), redials with backoff,
 * also when the camera is down at first, and stops when the last consumer leaves.
 */
export class SourceRunner {
  state: SourceState = 'idle';
  tracks: Track[] = [];
  medias: Media[] = [];
  lastError?: string;
  private connection?: ProducerConnection;
  private dialing?: Promise<Media[]>;
  private abort = new AbortController();
  private retryTimer?: NodeJS.Timeout;
  private attempt = 0;
  private wanted = false;

  constructor(private readonly options: SourceRunnerOptions) {
    if (options.pushed) this.adopt(options.pushed);
  }

  get url(): string {
    return this.options.url;
  }

  get pushed(): boolean {
    return this.options.pushed !== undefined;
  }

  /**
   * Dials (retrying within the first-dial budget, or `budgetMs`: 0 tries once) unless already
   * connected; resolves with the medias.
   */
  async ensureDialed(budgetMs?: number): Promise<Media[]> {
    if (this.connection) return this.medias;
    this.dialing ??= this.dialWithin(budgetMs ?? this.options.firstDialBudgetMs ?? 8_000).finally(() => (this.dialing = undefined));
    return this.dialing;
  }

  private async dialWithin(budgetMs: number): Promise<Media[]> {
    const deadline = Date.now() + budgetMs;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.dialOnce();
        return this.medias;
      } catch (error) {
        this.lastError = (error as Error).message;
        const wait = Math.min(1_000 * (attempt + 1), 2_000);
        // The source saying no (refused, 401, 404, or an error that says a retry is useless)
        // ends the wait at once: the viewer reads the cause now, not after the whole budget.
        if (isDialRefusal(error) || Date.now() + wait > deadline || this.state === 'closed') {
          // Given up: no dial is in flight any more (start() may still schedule a reconnect).
          if (this.state === 'dialing') this.state = this.wanted ? 'waiting' : 'idle';
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private async dialOnce(): Promise<void> {
    if (this.state === 'closed') throw new Error('stream closed');
    this.state = 'dialing';
    this.abort = new AbortController();
    const connection = await this.options.handler.dial(this.options.url, {
      signal: this.abort.signal,
      streamName: this.options.streamName,
    });
    // close() may have run while the dial was in flight.
    if ((this.state as SourceState) === 'closed') {
      connection.close();
      throw new Error('stream closed');
    }
    this.adopt(connection);
  }

  private adopt(connection: ProducerConnection): void {
    clearTimeout(this.retryTimer);
    if (this.connection && this.connection !== connection) this.connection.close();
    this.connection = connection;
    this.lastError = undefined;
    this.attempt = 0;
    // Keep the tracks consumers hold when the new connection offers the same media and codec
    // (their RTP stays continuous), but nothing cached from the connection before: the camera
    // may have come back with another picture size.
    const tracks = connection.medias.map((media, i) => {
      const previous = this.tracks[i];
      const codec = media.codecs[0]!;
      if (previous && previous.media.kind === media.kind && previous.codec.name === codec.name) {
        previous.beginSource(media, codec);
        return previous;
      }
      return new Track(media, codec, this.options.track);
    });
    for (const old of this.tracks) if (!tracks.includes(old)) old.close();
    tracks.forEach((track, i) => track.setKeyframeRequester(connection.requestKeyframe ? () => connection.requestKeyframe!(i) : undefined));
    this.tracks = tracks;
    this.medias = connection.medias;
    this.state = 'waiting';
    void connection.closed.then((error) => this.onConnectionClosed(connection, error));
    if (this.wanted || this.pushed) this.startFlow();
  }

  /** Packets flow from the source into the tracks (the first consumer arrived). */
  start(): void {
    this.wanted = true;
    if (this.connection) {
      if (this.state !== 'running') this.startFlow();
      return;
    }
    // Wanted again after a stop (another consumer let go meanwhile): dial, and keep trying.
    if (this.state !== 'closed' && !this.dialing) {
      this.ensureDialed().catch(() => {
        if (this.wanted && !this.connection) this.scheduleReconnect();
      });
    }
  }

  private startFlow(): void {
    const connection = this.connection!;
    this.state = 'running';
    connection.start((index, packet) => this.tracks[index]?.receive(packet));
  }

  /** The last consumer left: close the connection (a pushed source stays). */
  stop(): void {
    this.wanted = false;
    if (this.pushed) return;
    clearTimeout(this.retryTimer);
    this.abort.abort();
    const connection = this.connection;
    this.connection = undefined;
    connection?.close();
    this.endSource();
    if (this.state !== 'closed') this.state = 'idle';
  }

  /** No connection feeds the tracks: a cache must not outlive the connection that filled it. */
  private endSource(): void {
    for (const track of this.tracks) track.endSource();
  }

  private onConnectionClosed(connection: ProducerConnection, error: Error | undefined): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.endSource();
    if (error) this.lastError = error.message;
    if (this.pushed) {
      this.state = 'closed';
      this.options.onEnded?.();
      return;
    }
    if (!this.wanted || this.state === 'closed') {
      if (this.state !== 'closed') this.state = 'idle';
      return;
    }
    this.state = 'waiting';
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const wait = (this.options.delay ?? reconnectDelayMs)(this.attempt++);
    this.options.logger.warn('source lost; reconnecting', {
      stream: this.options.streamName,
      source: this.options.url,
      in_ms: wait,
      error: this.lastError,
    });
    this.retryTimer = setTimeout(() => {
      if (!this.wanted || this.state === 'closed') return;
      this.dialOnce().catch((error: Error) => {
        this.lastError = error.message;
        this.state = 'waiting';
        this.scheduleReconnect();
      });
    }, wait);
  }

  /** Sends a packet to the source's backchannel media; dropped while the source is not connected. */
  sendBackchannel(mediaIndex: number, packet: RtpPacket): boolean {
    return this.connection?.send?.(mediaIndex, packet) ?? false;
  }

  close(): void {
    this.wanted = false;
    this.state = 'closed';
    clearTimeout(this.retryTimer);
    this.abort.abort();
    this.connection?.close();
    this.connection = undefined;
    for (const track of this.tracks) track.close();
    this.tracks = [];
  }

  info(): ConnectionInfo & { url: string; state?: SourceState; error?: string } {
    if (!this.connection) {
      return this.lastError ? { url: this.options.url, state: this.state, error: this.lastError } : { url: this.options.url };
    }
    return {
      ...this.connection.info(),
      url: this.options.url,
      receivers: this.tracks.map((t) => ({
        id: t.id,
        codec: codecStats(t.codec, t.media.kind),
        childs: t.senderCount,
        bytes: t.bytes,
        packets: t.packets,
      })),
    };
  }
}
