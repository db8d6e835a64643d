import type { Logger } from '../../platform/logger';
import { BackchannelHold, NoBackchannelError } from './backchannel';
import type { Media } from './media';
import type { Consumer } from './consumer';
import { CodecMismatchError, everyRequestMatched, negotiate } from './negotiation';
import type { ConnectionInfo, ProducerConnection, SchemeHandler } from './producer';
import type { SchemeRegistry } from './scheme-registry';
import { redactSource } from './redact-source';
import { SourceRunner } from './source-runner';
import type { Sender, TrackOptions } from './track';

export class SourceUnavailableError extends Error {
  override name = 'SourceUnavailableError';
}

interface AttachedConsumer {
  consumer: Consumer;
  senders: Array<{ sender: Sender; runner: SourceRunner; trackIndex: number }>;
  runners: Set<SourceRunner>;
}

export interface StreamOptions {
  name: string;
  sources: string[];
  schemes: SchemeRegistry;
  logger: Logger;
  track: TrackOptions;
  firstDialBudgetMs?: number;
  delay?: (attempt: number) => number;
}

/**
 * A named stream: its sources in order (plus any pushed ones) and its consumers. Sources start
 * when the first consumer needs them and stop when the last one leaves.
 */
export class Stream {
  readonly name: string;
  private runners: SourceRunner[] = [];
  private readonly consumers = new Map<Consumer, AttachedConsumer>();

  constructor(private readonly options: StreamOptions) {
    this.name = options.name;
    this.setSources(options.sources);
  }

  get sources(): string[] {
    return this.runners.filter((r) => !r.pushed).map((r) => r.url);
  }

  /** Replaces the configured sources; connections to removed ones are closed. */
  setSources(sources: string[]): void {
    const kept = this.runners.filter((r) => r.pushed || sources.includes(r.url));
    for (const runner of this.runners) if (!kept.includes(runner)) runner.close();
    const next: SourceRunner[] = [];
    for (const url of sources) {
      const existing = kept.find((r) => !r.pushed && r.url === url);
      if (existing) {
        next.push(existing);
        continue;
      }
      const handler = this.options.schemes.resolve(url);
      if (!handler) continue; // validated by the caller; an unknown scheme never gets here
      next.push(this.newRunner(url, handler));
    }
    this.runners = [...next, ...kept.filter((r) => r.pushed)];
  }

  private newRunner(url: string, handler: SchemeHandler, pushed?: ProducerConnection): SourceRunner {
    return new SourceRunner({
      url,
      streamName: this.name,
      handler,
      logger: this.options.logger,
      track: this.options.track,
      pushed,
      firstDialBudgetMs: this.options.firstDialBudgetMs,
      delay: this.options.delay,
      onEnded: () => this.removePushed(url),
    });
  }

  /** A publisher (RTSP ANNOUNCE/RECORD, a POSTed upload) becomes a producer while it lasts. */
  addPushed(url: string, connection: ProducerConnection): SourceRunner {
    const runner = this.newRunner(url, { dial: () => Promise.reject(new Error('pushed sources are not dialed')) }, connection);
    this.runners = [runner, ...this.runners];
    return runner;
  }

  private removePushed(url: string): void {
    const ended = this.runners.filter((r) => r.pushed && r.url === url && r.state === 'closed');
    for (const runner of ended) {
      // Viewers of a publisher that left are closed, so a relay pulling from us reconnects
      // (and picks up the next publisher) instead of waiting on a silent socket.
      for (const [consumer, attached] of [...this.consumers]) {
        if (!attached.runners.has(runner)) continue;
        this.removeConsumer(consumer);
        consumer.close('the publisher left');
      }
      runner.close();
    }
    this.runners = this.runners.filter((r) => !ended.includes(r));
  }

  /**
   * Connects a consumer: dials the sources it may need (in order, until the request is met),
   * negotiates codecs and attaches a sender per matched track. Throws SourceUnavailableError or
   * CodecMismatchError with a message for the user.
   */
  async addConsumer(consumer: Consumer): Promise<void> {
    this.attaching++;
    try {
      await this.attachConsumer(consumer);
    } finally {
      this.attaching--;
      // Sources dialed for the offer but not chosen give their connection back.
      this.releaseUnused();
    }
  }

  /**
   * Consumers being attached right now. While one is, no source is released as unused: a source
   * that is still dialing for it (an ffmpeg: source whose child reads this very stream, as
   * Home Assistant lists them) would otherwise be stopped by the attach its own child makes.
   */
  private attaching = 0;

  private async attachConsumer(consumer: Consumer): Promise<void> {
    if (this.runners.length === 0) throw new SourceUnavailableError(`stream ${redactSource(this.name)} has no source`);
    const { offered, errors } = await this.dialInOrder(consumer);
    if (offered.every((medias) => medias.length === 0)) {
      throw new SourceUnavailableError(
        `stream ${redactSource(this.name)}: no source is reachable (${redactSource(errors.join('; ')) || 'no media'})`,
      );
    }
    const matches = negotiate(consumer.requests, offered);
    const attached: AttachedConsumer = { consumer, senders: [], runners: new Set() };
    try {
      for (const match of matches) {
        const runner = this.runners[match.producer]!;
        const track = runner.tracks[match.media];
        if (!track) continue;
        const sink = consumer.attach(track, match);
        attached.senders.push({ sender: track.addSender(sink, match.codec), runner, trackIndex: match.media });
        attached.runners.add(runner);
      }
    } catch (error) {
      // An output that cannot take a track it asked for (no depacketizer for the codec) leaves
      // nothing attached behind it.
      for (const { sender, runner, trackIndex } of attached.senders) runner.tracks[trackIndex]?.removeSender(sender);
      throw new CodecMismatchError((error as Error).message);
    }
    this.consumers.set(consumer, attached);
    for (const runner of attached.runners) runner.start();
  }

  /**
   * Dials the sources in order, as go2rtc does, until the medias offered answer every request
   * of the consumer: a camera that has the video and audio a viewer asked for is the only source
   * started; an `ffmpeg:` source that makes Opus or MJPEG of it starts only for a viewer that
   * needs that. A source that fails is tried once (the next source may have the media); only the
   * last candidate gets the first-dial budget of retries.
   */
  private async dialInOrder(consumer: Consumer): Promise<{ offered: Media[][]; errors: string[] }> {
    const offered: Media[][] = this.runners.map(() => []);
    const errors: string[] = [];
    const candidates = this.runners.filter((runner) => runner.url !== consumer.excludedSource);
    for (const [index, runner] of this.runners.entries()) {
      if (runner.url === consumer.excludedSource) continue;
      if (offered.some((medias) => medias.length > 0) && everyRequestMatched(consumer.requests, offered)) break;
      const last = runner === candidates.at(-1);
      try {
        offered[index] = await runner.ensureDialed(last ? undefined : 0);
      } catch (error) {
        errors.push(`${redactSource(runner.url)}: ${(error as Error).message}`);
      }
    }
    return { offered, errors };
  }

  /**
   * Dials every source and reads the stream while they are connected, so the producers show
   * their medias (go2rtc's probe: Frigate looks for audio and a two-way audio media in them);
   * sources nobody watches hang up afterwards. A source that cannot be reached shows its error.
   */
  async probe<T>(read: () => T): Promise<T> {
    await Promise.all(this.runners.map((runner) => runner.ensureDialed().catch(() => undefined)));
    try {
      return read();
    } finally {
      this.releaseUnused();
    }
  }

  private backchannel?: BackchannelHold;

  /**
   * Finds the first source with a backchannel (a `sendonly` media, e.g. a camera's speaker),
   * keeps it connected and hands it out. A new holder replaces the previous one, as a new clip
   * played to a doorbell replaces the one still playing.
   */
  async openBackchannel(label: ConnectionInfo): Promise<BackchannelHold> {
    const errors: string[] = [];
    for (const runner of this.runners) {
      let medias: Media[];
      try {
        medias = await runner.ensureDialed();
      } catch (error) {
        errors.push(`${redactSource(runner.url)}: ${(error as Error).message}`);
        continue;
      }
      const mediaIndex = medias.findIndex((media) => media.direction === 'sendonly');
      if (mediaIndex < 0) continue;
      this.backchannel?.close('another source plays into the stream');
      const hold = new BackchannelHold(runner, mediaIndex, medias[mediaIndex]!, label, (released) => {
        this.removeConsumer(released);
        if (this.backchannel === released) this.backchannel = undefined;
      });
      this.backchannel = hold;
      this.consumers.set(hold, { consumer: hold, senders: [], runners: new Set([runner]) });
      runner.start();
      this.releaseUnused();
      return hold;
    }
    this.releaseUnused();
    const why = errors.length > 0 ? ` (${errors.join('; ')})` : '';
    throw new NoBackchannelError(`stream ${this.name} has no source with two-way audio (an RTSP camera with an ONVIF backchannel)${why}`);
  }

  /** Sources dialed to look at their medias but used by nobody give their connection back. */
  private releaseUnused(): void {
    if (this.attaching > 0) return; // the last attach in flight releases them when it ends
    for (const runner of this.runners) if (!runner.pushed && !this.inUse(runner)) runner.stop();
  }

  private inUse(runner: SourceRunner): boolean {
    return [...this.consumers.values()].some((attached) => attached.runners.has(runner));
  }

  removeConsumer(consumer: Consumer): void {
    const attached = this.consumers.get(consumer);
    if (!attached) return;
    this.consumers.delete(consumer);
    for (const { sender, runner, trackIndex } of attached.senders) runner.tracks[trackIndex]?.removeSender(sender);
    for (const runner of attached.runners) if (!this.inUse(runner)) runner.stop();
  }

  get consumerCount(): number {
    return this.consumers.size;
  }

  info(): { producers: ConnectionInfo[]; consumers: ConnectionInfo[] } {
    return {
      producers: this.runners.map((r) => r.info()),
      consumers: [...this.consumers.values()].map(({ consumer, senders }) => ({
        ...consumer.info(),
        senders: senders.map(({ sender }) => sender.stats()),
      })),
    };
  }

  /** Deleting a stream closes its connections (go2rtc leaves them running). */
  close(reason = 'stream deleted'): void {
    for (const consumer of [...this.consumers.keys()]) {
      this.removeConsumer(consumer);
      consumer.close(reason);
    }
    for (const runner of this.runners) runner.close();
    this.runners = [];
  }

  runnerStates(): SourceRunner[] {
    return [...this.runners];
  }
}

export { CodecMismatchError, NoBackchannelError };
