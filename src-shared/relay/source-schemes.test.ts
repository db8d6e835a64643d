import { describe, expect, it } from 'vitest';
import { CODE_RUNNING_SCHEMES, SOURCE_HINTS, sourceHintText } from './source-schemes';

describe('source hints', () => {
  it.each(SOURCE_HINTS.map((hint) => [hint.scheme, hint]))('%s: its example is of its scheme and it runs no command', (_scheme, hint) => {
    expect(hint.example.startsWith(hint.prefix)).toBe(true);
    expect(hint.prefix.replace(/:(\/\/)?$/, '')).toBe(hint.scheme);
    expect(CODE_RUNNING_SCHEMES).not.toContain(hint.scheme);
    if (hint.shape) expect(hint.shape.startsWith(hint.prefix)).toBe(true);
  });

  it.each([
    [
      [{ scheme: 'rtsp', prefix: 'rtsp://', example: 'rtsp://x' }],
      'rtsp://, … Commands (exec:, echo:, expr:) are accepted only in the config file.',
    ],
    [
      [
        { scheme: 'rtsp', prefix: 'rtsp://', example: 'rtsp://x' },
        { scheme: 'ffmpeg', prefix: 'ffmpeg:', example: 'ffmpeg:x' },
      ],
      'rtsp://, ffmpeg:, … Commands (exec:, echo:, expr:) are accepted only in the config file.',
    ],
  ])('the hint text lists %j', (hints, text) => {
    expect(sourceHintText(hints)).toBe(text);
  });

  it("explains a remote relay's stream by its whole shape, and the example names a relay and a stream", () => {
    expect(sourceHintText()).toContain('relay://<relay>/<stream>, …');
    expect(SOURCE_HINTS.find((hint) => hint.scheme === 'relay')?.example).toMatch(/^relay:\/\/[a-z0-9_-]+\/[^/]+$/);
  });

  it('never suggests a scheme the relay does not play (homekit is only discovered)', () => {
    expect(sourceHintText()).not.toMatch(/homekit|dvrip/);
  });
});
