import { ALL, ANY, type Codec, type Media, type MediaKind } from './media';

/** What an output accepts for one media: a kind and codec names (or ANY / ALL). */
export interface MediaRequest {
  kind: MediaKind;
  codecs: string[];
}

export interface TrackMatch {
  producer: number;
  media: number;
  codec: Codec;
  request: MediaRequest;
}

export class CodecMismatchError extends Error {
  override name = 'CodecMismatchError';
}

/**
 * Matches each requested media against the producers' medias, producers in order; the first
 * producer with a match wins (every producer for ALL). No match at all is an error that names
 * what the source has and what the output accepts.
 */
export function negotiate(requests: readonly MediaRequest[], producers: ReadonlyArray<readonly Media[]>): TrackMatch[] {
  const matches: TrackMatch[] = [];
  for (const request of requests) {
    const wantsAll = request.codecs.includes(ALL);
    let found = false;
    producers.forEach((medias, producer) => {
      if (found && !wantsAll) return;
      medias.forEach((media, mediaIndex) => {
        if ((found && !wantsAll) || media.kind !== request.kind || media.direction !== 'recvonly') return;
        const codec = pickCodec(media.codecs, request.codecs);
        if (!codec) return;
        matches.push({ producer, media: mediaIndex, codec, request });
        found = true;
      });
    });
  }
  if (matches.length === 0 && requests.length > 0) {
    throw new CodecMismatchError(
      `codecs not matched: the source has ${describeOffer(producers)}; this output accepts ${describeRequests(requests)}`,
    );
  }
  return matches;
}

/**
 * Whether the medias offered so far answer every request, so no further source needs dialing
 * (go2rtc dials a stream's sources in order and stops at the first that has what the consumer
 * asked for). A request for all codecs wants every source, so it is never answered early.
 */
export function everyRequestMatched(requests: readonly MediaRequest[], producers: ReadonlyArray<readonly Media[]>): boolean {
  return requests.every(
    (request) =>
      !request.codecs.includes(ALL) &&
      producers.some((medias) =>
        medias.some(
          (media) => media.kind === request.kind && media.direction === 'recvonly' && pickCodec(media.codecs, request.codecs) !== undefined,
        ),
      ),
  );
}

function pickCodec(offered: readonly Codec[], accepted: readonly string[]): Codec | undefined {
  for (const name of accepted) {
    if (name === ANY || name === ALL) return offered[0];
    const hit = offered.find((c) => c.name === name);
    if (hit) return hit;
  }
  return undefined;
}

function describeOffer(producers: ReadonlyArray<readonly Media[]>): string {
  const parts = producers.flatMap((medias) =>
    medias.filter((m) => m.direction === 'recvonly').map((m) => `${m.kind} ${m.codecs.map((c) => c.name).join('/')}`),
  );
  return parts.length > 0 ? parts.join(', ') : 'no media';
}

function describeRequests(requests: readonly MediaRequest[]): string {
  return requests
    .map((r) => `${r.kind} ${r.codecs.map((c) => (c === ANY ? 'any codec' : c === ALL ? 'all codecs' : c)).join('/')}`)
    .join(', ');
}
