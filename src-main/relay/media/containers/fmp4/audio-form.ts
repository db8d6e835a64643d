import { fmp4Carries } from './sample-entry';

/**
 * What a client of an fMP4 output (MSE, HLS fMP4, stream.mp4) says it decodes of the audio forms
 * that matter for PCM sources: FLAC, or G.711 as MP4's own `alaw` / `ulaw` sample entries.
 */
export interface ClientAudio {
  readonly flac: boolean;
  readonly alaw: boolean;
  readonly ulaw: boolean;
}

/**
 * A query's filters (`mp4=flac`, `mp4=all`, `audio=pcma`) say which source codecs an output may
 * take, not how MP4 writes them: PCM that gets through is written as FLAC, as go2rtc's MP4
 * writer does, the one form browsers, Safari and players all decode.
 */
export const QUERY_CLIENT: ClientAudio = Object.freeze({ flac: true, alaw: false, ulaw: false });

/** The PCM family of RTP the relay can turn into FLAC. */
const PCM_CODECS = ['PCMA', 'PCMU', 'L16'] as const;

/** `as-is`: the frames go into MP4 as they come; `flac`: PCM decoded and written as FLAC frames. */
export type AudioForm = 'as-is' | 'flac';

/**
 * How an fMP4 output writes a source codec for this client, or undefined when it has no form the
 * client decodes. G.711 becomes FLAC when the client takes FLAC (browsers and Safari do not play
 * `alaw`), stays G.711 only for a client that named it, and is left out otherwise; 16-bit PCM has
 * no MP4 form of its own here, so it is FLAC or nothing. Other codecs go as they are when MP4
 * carries them.
 */
export function fmp4AudioForm(codecName: string, client: ClientAudio): AudioForm | undefined {
  switch (codecName) {
    case 'PCMA':
      return client.flac ? 'flac' : client.alaw ? 'as-is' : undefined;
    case 'PCMU':
      return client.flac ? 'flac' : client.ulaw ? 'as-is' : undefined;
    case 'L16':
      return client.flac ? 'flac' : undefined;
    default:
      return fmp4Carries(codecName) ? 'as-is' : undefined;
  }
}

/** The PCM codecs worth asking a source for on this client's behalf: those it gets in some form. */
export function pcmCodecsFor(client: ClientAudio): string[] {
  return PCM_CODECS.filter((name) => fmp4AudioForm(name, client) !== undefined);
}
