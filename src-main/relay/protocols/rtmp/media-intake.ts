import { createFlvDemuxer } from '../../media/containers/flv/flv-demuxer';
import type { ConnectionInfo } from '../../core/producer';
import { createDemuxedProducer, type DemuxedProducer } from '../../media/frames/demuxed-producer';
import { decodeAmf0Values, type AmfValue } from './amf0';
import type { RtmpMessage } from './chunk-stream';
import { flvFileHeader, flvTag } from '../../media/containers/flv-mux/flv-tags';

/**
 * The media side of an RTMP stream, publisher's or a server's we play: RTMP audio and video
 * messages carry exactly the bodies of FLV tags, so onMetaData and the messages become the FLV
 * byte stream ffmpeg would have written, for the FLV demuxer, and that a relay producer.
 */
export class RtmpMediaIntake {
  readonly demuxed: DemuxedProducer;
  private metadata: Record<string, AmfValue> | undefined;
  private started = false;
  private ended = false;

  constructor(label: ConnectionInfo) {
    this.demuxed = createDemuxedProducer(createFlvDemuxer, label);
  }

  /** Whether the publisher's metadata announces this kind of track (both when it said nothing). */
  private announces(kind: 'audio' | 'video'): boolean {
    const m = this.metadata;
    if (!m) return true;
    return kind === 'audio'
      ? 'audiocodecid' in m || 'audiodatarate' in m || 'stereo' in m
      : 'videocodecid' in m || 'width' in m || 'videodatarate' in m;
  }

  data(message: RtmpMessage): void {
    try {
      const values = decodeAmf0Values(message.payload);
      // `@setDataFrame("onMetaData", {...})` from publishers, `onMetaData({...})` from servers.
      const at = values.indexOf('onMetaData');
      const object = at >= 0 ? values[at + 1] : undefined;
      if (object && typeof object === 'object' && !Array.isArray(object)) this.metadata = object;
    } catch {
      // Metadata is a hint; the sequence headers say what the tracks are.
    }
  }

  media(message: RtmpMessage): void {
    if (this.ended || message.payload.length === 0) return;
    try {
      if (!this.started) {
        this.started = true;
        this.demuxed.demuxer.push(flvFileHeader(this.announces('audio'), this.announces('video')));
      }
      this.demuxed.demuxer.push(flvTag(message.type, message.timestamp, message.payload));
    } catch (error) {
      this.end(error as Error);
    }
  }

  end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    if (!error && this.started) {
      try {
        this.demuxed.demuxer.end();
      } catch (failure) {
        error = failure as Error;
      }
    }
    this.demuxed.end(error);
  }
}
