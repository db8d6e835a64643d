import { describe, expect, it } from 'vitest';
import { MaskedLoginError, restoreSavedLogins } from './saved-logins';

const saved = ['rtsp://admin:pw@10.0.0.9/main', 'rtsp://admin:other@10.0.0.9/sub', 'ffmpeg:door#audio=opus'];

describe('restoreSavedLogins', () => {
  it.each([
    [
      'unmasked sources pass as they are',
      ['rtsp://u:p@10.0.0.1/x', 'ffmpeg:door#audio=opus'],
      ['rtsp://u:p@10.0.0.1/x', 'ffmpeg:door#audio=opus'],
    ],
    ['a masked source gets its saved login back', ['rtsp://***@10.0.0.9/main'], ['rtsp://admin:pw@10.0.0.9/main']],
    [
      'reordered, each keeps its own login',
      ['rtsp://***@10.0.0.9/sub', 'rtsp://***@10.0.0.9/main'],
      ['rtsp://admin:other@10.0.0.9/sub', 'rtsp://admin:pw@10.0.0.9/main'],
    ],
    [
      'a new source beside a kept one',
      ['rtsp://***@10.0.0.9/main', 'http://10.0.0.9/snap.jpg'],
      ['rtsp://admin:pw@10.0.0.9/main', 'http://10.0.0.9/snap.jpg'],
    ],
  ])('%s', (_case, submitted, expected) => {
    expect(restoreSavedLogins(submitted, saved)).toEqual(expected);
  });

  it.each([
    ['a masked source that was never saved', ['rtsp://***@10.0.0.9/other']],
    ['a masked source typed by hand for a new stream', ['rtsp://***@10.0.0.9/main']],
  ])('refuses %s', (label, submitted) => {
    const from = label.includes('new stream') ? [] : saved;
    expect(() => restoreSavedLogins(submitted, from)).toThrow(MaskedLoginError);
    expect(() => restoreSavedLogins(submitted, from)).toThrow(/type the login again/);
  });

  it('a source literally saved with *** as its login is kept', () => {
    expect(restoreSavedLogins(['rtsp://***@h/x'], ['rtsp://***@h/x'])).toEqual(['rtsp://***@h/x']);
  });
});
