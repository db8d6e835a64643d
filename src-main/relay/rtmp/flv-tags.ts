import type { AmfValue } from './amf0';

// RTMP audio and video messages carry exactly the bodies of FLV tags, so a published stream is
// fed to the FLV demuxer as the file ffmpeg would have written: a header, then one tag per message.

/** The FLV file header with the tracks the publisher's metadata announces (both when it said nothing). */
export function flvHeader(metadata: Record<string, AmfValue> | undefined): Buffer {
  const audio = !metadata || 'audiocodecid' in metadata || 'audiodatarate' in metadata || 'stereo' in metadata;
  const video = !metadata || 'videocodecid' in metadata || 'width' in metadata || 'videodatarate' in metadata;
  return Buffer.from([0x46, 0x4c, 0x56, 1, (audio ? 4 : 0) | (video ? 1 : 0), 0, 0, 0, 9, 0, 0, 0, 0]);
}

/** One FLV tag (8 audio, 9 video, 18 script) and the previous-tag-size that follows it. */
export function flvTag(type: number, timestamp: number, body: Buffer): Buffer {
  const tag = Buffer.alloc(11 + body.length + 4);
  tag[0] = type;
  tag.writeUIntBE(body.length, 1, 3);
  tag.writeUIntBE(timestamp & 0xffffff, 4, 3);
  tag[7] = (timestamp >>> 24) & 0xff;
  body.copy(tag, 11);
  tag.writeUInt32BE(11 + body.length, 11 + body.length);
  return tag;
}
