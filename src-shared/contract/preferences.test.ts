import { describe, expect, it } from 'vitest';
import { preferencesSchema, preferencesService } from './preferences';
import { MAX_REMOTE_SOURCE_LENGTH, parseRemoteStreamSource, remoteStreamSource } from './relays';

// The longest tile id there is: a 64-character relay and a 128-character stream name whose every
// character percent-encodes to 9 characters (a 3-byte UTF-8 character), as Live saves it.
const longestRelay = 'r'.repeat(64);
const longestName = '界'.repeat(128);
const longest = remoteStreamSource(longestRelay, longestName);
const methods = preferencesService.methods;

describe('preferences: tiles of remote relays', () => {
  it('the longest relay:// id is the limit, and it names its relay and stream back', () => {
    expect(longest).toHaveLength(MAX_REMOTE_SOURCE_LENGTH);
    expect(parseRemoteStreamSource(longest)).toEqual({ relay: longestRelay, name: longestName });
    // A 4-byte character is two of the name's 128 units: it encodes to less per unit.
    expect(remoteStreamSource(longestRelay, '😀'.repeat(64)).length).toBeLessThan(MAX_REMOTE_SOURCE_LENGTH);
  });

  it('saves the longest relay:// id in the tile order, as a forced mode and as a pop-out', () => {
    expect(methods.setLiveView.input.safeParse({ layout: 'auto', order: [longest, 'yard'] }).success).toBe(true);
    expect(methods.setTileMode.input.safeParse({ stream: longest, mode: 'mjpeg' }).success).toBe(true);
    expect(methods.openPopout.input.safeParse({ stream: longest }).success).toBe(true);
    const saved = preferencesSchema.parse({ live: { order: [longest], modes: { [longest]: 'hls' } }, popouts: [{ stream: longest }] });
    expect(saved.live.order).toEqual([longest]);
    expect(saved.live.modes[longest]).toBe('hls');
  });

  it('refuses one character more, and an empty stream', () => {
    const tooLong = `${longest}x`;
    expect(methods.setLiveView.input.safeParse({ layout: 'auto', order: [tooLong] }).success).toBe(false);
    expect(methods.setTileMode.input.safeParse({ stream: tooLong, mode: 'mjpeg' }).success).toBe(false);
    expect(methods.openPopout.input.safeParse({ stream: tooLong }).success).toBe(false);
    expect(methods.setTileMode.input.safeParse({ stream: '', mode: 'mjpeg' }).success).toBe(false);
  });
});
