// The two pieces every FLV byte stream is made of, for the muxer (stream.flv) and for RTMP,
// whose audio and video messages are FLV tag bodies fed to the FLV demuxer.

/** The 13-byte file header (signature, version, which tracks, PreviousTagSize0). */
export function flvFileHeader(audio: boolean, video: boolean): Uint8Array {
  return Uint8Array.of(0x46, 0x4c, 0x56, 1, (audio ? 0x04 : 0) | (video ? 0x01 : 0), 0, 0, 0, 9, 0, 0, 0, 0);
}

/** One FLV tag (11-byte header, data, PreviousTagSize); timestamps in ms, the upper byte extended. */
export function flvTag(type: number, ms: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(11 + data.length + 4);
  const view = new DataView(out.buffer);
  out[0] = type;
  out[1] = (data.length >> 16) & 0xff;
  out[2] = (data.length >> 8) & 0xff;
  out[3] = data.length & 0xff;
  const time = Math.max(0, Math.round(ms)) >>> 0;
  out[4] = (time >> 16) & 0xff;
  out[5] = (time >> 8) & 0xff;
  out[6] = time & 0xff;
  out[7] = (time >>> 24) & 0xff;
  out.set(data, 11);
  view.setUint32(11 + data.length, 11 + data.length);
  return out;
}
