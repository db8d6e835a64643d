import { afterEach, describe, expect, it, vi } from 'vitest';
import { startsKeyframe } from './keyframe';
import type { Codec, Media } from './media';
import type { RtpPacket } from './rtp-packet';
import { Track, type PacketSink } from './track';

const vp8: Codec = { name: 'VP8', clockRate: 90000, payloadType: 96 };
const media: Media = { kind: 'video', direction: 'recvonly', codecs: [vp8] };
const sink = (): PacketSink => ({ write: () => true, onDrain: () => undefined });
const packet = (payload: number[], timestamp = 0): RtpPacket => ({
  marker: false,
  payloadType: 96,
  sequenceNumber: 0,
  timestamp,
  ssrc: 1,
  payload: Uint8Array.from(payload),
});

describe('keyframes from sources that can be asked for one', () => {
  afterEach(() => vi.useRealTimers());

  it('VP8: a keyframe starts a GOP (S bit, partition 0, P clear), with or without the extended descriptor', () => {
    expect(startsKeyframe('VP8', packet([0x10, 0x00]))).toBe(true);
    expect(startsKeyframe('VP8', packet([0x10, 0x01]))).toBe(false); // interframe
    expect(startsKeyframe('VP8', packet([0x00, 0x00]))).toBe(false); // not the frame's first packet
    expect(startsKeyframe('VP8', packet([0x90, 0x80, 0x81, 0x23, 0x00]))).toBe(true); // X, I with a 15-bit PictureID
    expect(startsKeyframe('VP8', packet([0x90, 0x80, 0x81, 0x23, 0x01]))).toBe(false);
  });

  it('a viewer joining with nothing cached asks the source, at most twice a second; a cached GOP asks nothing', () => {
    vi.useFakeTimers();
    const track = new Track(media, vp8, { nextId: () => 1 });
    const requester = vi.fn();
    track.setKeyframeRequester(requester);
    track.addSender(sink());
    track.addSender(sink());
    expect(requester).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(600);
    track.addSender(sink());
    expect(requester).toHaveBeenCalledTimes(2);

    vi.advanceTimersByTime(600);
    track.receive(packet([0x10, 0x00], 1000));
    track.addSender(sink());
    expect(requester).toHaveBeenCalledTimes(2);
  });

  it('a source that cannot be asked (no requester) and audio tracks are never asked', () => {
    const track = new Track(media, vp8, { nextId: () => 1 });
    expect(() => track.requestKeyframe()).not.toThrow();
    const opus: Codec = { name: 'OPUS', clockRate: 48000, payloadType: 111, channels: 2 };
    const audio = new Track({ kind: 'audio', direction: 'recvonly', codecs: [opus] }, opus, { nextId: () => 1 });
    const requester = vi.fn();
    audio.setKeyframeRequester(requester);
    audio.addSender(sink());
    expect(requester).not.toHaveBeenCalled();
  });
});
