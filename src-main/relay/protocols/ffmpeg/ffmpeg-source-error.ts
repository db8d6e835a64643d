/** A source string ffmpeg: cannot turn into arguments; its message says what to write instead. */
export class FfmpegSourceError extends Error {
  override name = 'FfmpegSourceError';
}
