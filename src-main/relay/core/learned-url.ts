import { schemeOf } from './scheme-registry';

/**
 * The schemes a URL that a source learns from the network may name: a camera's ONVIF stream
 * URI, an HTTP redirect, an HLS variant playlist, a WHEP resource, a P2P or discovery answer.
 * Whoever answers on the network is not the user who wrote the config: an answer of
 * `exec:sh -c ...` or `ffmpeg:/etc/shadow` must never become a command or a local file.
 */
const NETWORK_SCHEMES = ['rtsp', 'rtsps', 'rtmp', 'rtmps', 'http', 'https'] as const;

class LearnedUrlRefusedError extends Error {
  override name = 'LearnedUrlRefusedError';
  /** Dialing again at once gets the same answer: the waiting viewer is told now (see SourceRunner). */
  readonly permanent = true;
}

/**
 * `url` when it is an absolute URL with one of `allowed` (by default the network schemes) and
 * a host; otherwise a LearnedUrlRefusedError that names who answered it and the scheme, never
 * the rest (the rest may be a command line or a path, and ends up in logs and the console).
 */
export function assertLearnedUrl(url: string, learnedFrom: string, allowed: readonly string[] = NETWORK_SCHEMES): URL {
  const scheme = schemeOf(url);
  if (!allowed.includes(scheme)) {
    throw new LearnedUrlRefusedError(
      `${learnedFrom} answered a ${scheme ? `${scheme}:` : 'relative or malformed'} address; only ${allowed.join(', ')} addresses learned from the network are played`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LearnedUrlRefusedError(`${learnedFrom} answered a ${scheme}: address that is not a valid URL`);
  }
  if (!parsed.hostname) throw new LearnedUrlRefusedError(`${learnedFrom} answered a ${scheme}: address without a host`);
  return parsed;
}
