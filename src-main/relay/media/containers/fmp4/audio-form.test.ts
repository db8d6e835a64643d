import { describe, expect, it } from 'vitest';
import type { Codec, MediaFrame } from '@main/relay/core/media';
import { fixture } from '@main/relay/test/media-fixtures';
import { flacStreamInfo } from '../../codecs/flac/flac-encoder';
import { fmp4AudioForm, pcmCodecsFor, QUERY_CLIENT, type ClientAudio } from './audio-form';
import { findBoxes, readBoxes, readFragments } from './box-reader';
import { createFmp4Muxer } from './muxer';
import { fmp4OutputTracks } from './output-tracks';

const none: ClientAudio = { flac: false, alaw: false, ulaw: false };
const PCMA: Codec = { name: 'PCMA', clockRate: 8000, payloadType: 8 };

/** The one sample entry of an init segment's first track, and its child boxes. */
function sampleEntry(init: Uint8Array) {
  const stsd = findBoxes(init, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd'])[0]!;
  // stsd: version and flags, entry count, then the entries.
  const [entry] = readBoxes(stsd.body, 8);
  const view = new DataView(entry!.body.buffer, entry!.body.byteOffset, entry!.body.byteLength);
  // AudioSampleEntry: 6 reserved, data reference index, 8 reserved, channels, sample size, 4 reserved, rate 16.16.
  return {
    type: entry!.type,
    channels: view.getUint16(16),
    sampleSize: view.getUint16(18),
    rate: view.getUint32(24) / 0x10000,
    children: readBoxes(entry!.body, 28),
  };
}

describe('how fMP4 outputs write audio for a client', () => {
  it('G.711 as FLAC when the client takes FLAC, as alaw / ulaw only when it named them, else not at all', () => {
    expect(fmp4AudioForm('PCMA', { ...none, flac: true })).toBe('flac');
    expect(fmp4AudioForm('PCMA', { flac: true, alaw: true, ulaw: true })).toBe('flac');
    expect(fmp4AudioForm('PCMA', { ...none, alaw: true })).toBe('as-is');
    expect(fmp4AudioForm('PCMA', { ...none, ulaw: true })).toBeUndefined();
    expect(fmp4AudioForm('PCMU', { ...none, ulaw: true })).toBe('as-is');
    expect(fmp4AudioForm('PCMU', none)).toBeUndefined();
    expect(fmp4AudioForm('L16', { ...none, flac: true })).toBe('flac');
    expect(fmp4AudioForm('L16', { ...none, alaw: true })).toBeUndefined();
    // Codecs MP4 carries go as they are; others have no form.
    expect(fmp4AudioForm('MPEG4-GENERIC', none)).toBe('as-is');
    expect(fmp4AudioForm('H264', none)).toBe('as-is');
    expect(fmp4AudioForm('MPA', QUERY_CLIENT)).toBeUndefined();
  });

  it('asks a source for the PCM codecs the client gets in some form; a query filter gets FLAC', () => {
    expect(pcmCodecsFor({ ...none, flac: true })).toEqual(['PCMA', 'PCMU', 'L16']);
    expect(pcmCodecsFor({ ...none, alaw: true })).toEqual(['PCMA']);
    expect(pcmCodecsFor({ ...none, ulaw: true })).toEqual(['PCMU']);
    expect(pcmCodecsFor(none)).toEqual([]);
    expect(fmp4AudioForm('PCMA', QUERY_CLIENT)).toBe('flac');
  });

  it('turns recorded A-law into FLAC frames on the same clock, one per packet', () => {
    const [track] = fmp4OutputTracks([{ kind: 'audio', codec: PCMA }], { ...none, flac: true });
    expect(track!.codec).toMatchObject({ name: 'FLAC', clockRate: 8000, channels: 1 });
    const alaw = fixture('alaw-8000-2s.alaw');
    const frames = track!.convert({ codec: 'PCMA', timestamp: 4_294_967_200, keyframe: true, data: alaw.subarray(0, 160) });
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ codec: 'FLAC', timestamp: 4_294_967_200, keyframe: true });
    expect([frames[0]!.data[0], frames[0]!.data[1]]).toEqual([0xff, 0xf9]);
  });

  it('keeps G.711 and what MP4 carries as they are, and refuses a track with no form for the client', () => {
    const [alaw] = fmp4OutputTracks([{ kind: 'audio', codec: PCMA }], { ...none, alaw: true });
    const frame: MediaFrame = { codec: 'PCMA', timestamp: 0, keyframe: true, data: Uint8Array.of(0xd5) };
    expect(alaw!.codec).toBe(PCMA);
    expect(alaw!.convert(frame)).toEqual([frame]);
    expect(() =>
      fmp4OutputTracks([{ kind: 'audio', codec: { name: 'L16', clockRate: 16000, payloadType: 96 } }], { ...none, alaw: true }),
    ).toThrow(/MP4 cannot carry audio L16/);
  });

  it('describes FLAC in the init segment: an fLaC sample entry with the source rate and channels, and dfLa holding STREAMINFO', () => {
    for (const source of [
      PCMA,
      { name: 'PCMU', clockRate: 16000, payloadType: 0 },
      { name: 'L16', clockRate: 16000, channels: 2, payloadType: 96 },
    ]) {
      const tracks = fmp4OutputTracks([{ kind: 'audio', codec: source }], QUERY_CLIENT);
      const muxer = createFmp4Muxer(tracks);
      expect(muxer.contentType()).toBe('video/mp4; codecs="flac"');
      const entry = sampleEntry(muxer.init()!);
      const channels = source.channels ?? 1;
      expect(entry).toMatchObject({ type: 'fLaC', channels, sampleSize: 16, rate: source.clockRate });
      expect(entry.children.map((b) => b.type)).toEqual(['dfLa']);
      // FullBox version 0, flags 0; then a metadata block header: last block, type 0 (STREAMINFO), 34 bytes.
      const dfLa = entry.children[0]!.body;
      expect([...dfLa.subarray(0, 8)]).toEqual([0, 0, 0, 0, 0x80, 0, 0, 34]);
      expect(dfLa.subarray(8)).toEqual(flacStreamInfo({ sampleRate: source.clockRate, channels }));
    }
  });

  it('times FLAC samples by their block sizes in fragments', () => {
    const tracks = fmp4OutputTracks([{ kind: 'audio', codec: PCMA }], QUERY_CLIENT);
    const muxer = createFmp4Muxer(tracks);
    const alaw = fixture('alaw-8000-2s.alaw');
    const frames = [0, 160, 400].flatMap((start, i) =>
      tracks[0]!.convert({ codec: 'PCMA', timestamp: start, keyframe: true, data: alaw.subarray(start, start + [160, 240, 80][i]!) }),
    );
    const [fragment] = readFragments(muxer.fragment(frames.map((frame) => ({ track: 0, frame }))));
    expect(fragment!.tracks[0]!.samples.map((s) => s.duration)).toEqual([160, 240, 80]);
  });
});
