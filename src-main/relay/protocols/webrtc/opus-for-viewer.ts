import type { Media } from '../../core/media';
import type { Stream } from '../../core/stream';
import { opusSourceFor } from './opus-transcoders';
import type { WebrtcConsumer } from './webrtc-consumer';

export interface OpusNeed {
  /** The stream's own audio codec (what the answer says was transcoded). */
  from: string;
  /** The viewer is not attached to the transcoder yet: attach it again once Opus flows. */
  reattach: boolean;
}

/**
 * Whether a viewer needs the stream's audio transcoded to Opus: it asked for audio with Opus among
 * its codecs and the stream has audio none of its codecs matched (AAC from a camera, mostly), or
 * it was matched to the transcoder another viewer started (and so holds it too).
 */
export function opusNeed(
  offered: readonly Media[],
  consumer: Pick<WebrtcConsumer, 'tracks'>,
  stream: Pick<Stream, 'runnerStates'>,
  streamName: string,
): OpusNeed | undefined {
  if (!offered.some((media) => media.kind === 'audio' && media.codecs.some((codec) => codec.name === 'OPUS'))) return undefined;
  const transcoderUrl = opusSourceFor(streamName);
  const runners = stream.runnerStates();
  const transcoder = runners.find((runner) => runner.pushed && runner.url === transcoderUrl);
  const own = runners.filter((runner) => runner !== transcoder);
  const from = own.flatMap((runner) => runner.medias).find((media) => media.kind === 'audio' && media.direction !== 'sendonly')
    ?.codecs[0]?.name;
  if (!from) return undefined;
  const audio = consumer.tracks.filter((track) => track.kind === 'audio');
  if (audio.length === 0) return { from, reattach: true };
  if (transcoder && audio.some((track) => transcoder.tracks.includes(track.track))) return { from, reattach: false };
  return undefined;
}

/**
 * Says in the answer that its audio is transcoded: a media title (`i=`, RFC 8866 5.4) on the
 * audio section, which browsers ignore and people reading the SDP see.
 */
export function noteTranscodedAudio(answer: string, from: string): string {
  const name = from === 'MPEG4-GENERIC' ? 'AAC' : from;
  return answer.replace(/^(m=audio [^\r\n]*)(\r?\n)/m, `$1$2i=audio transcoded from ${name} to Opus by ffmpeg$2`);
}
