import type { StreamSummary } from '@shared/contract/relay';
import type { RelayState, RelayStreams } from '@shared/contract/relays';

/** A relay's last stream list, kept while its answers stay the same. */
export interface KeptStreams {
  streams: readonly StreamSummary[];
  /** The list as text, to compare the next answer with. */
  key: string;
  /** Unique to this list among all the monitor ever kept: equal versions are equal lists. */
  version: number;
}

/**
 * The relay's new answer, or the list kept from the last one when it says the same. Each
 * answer is compared once, with its own relay's last: the work of a poll grows with that
 * relay's streams, not with every relay's.
 */
export function keepStreams(kept: KeptStreams | undefined, answer: StreamSummary[], nextVersion: () => number): KeptStreams {
  const key = JSON.stringify(answer);
  return kept?.key === key ? kept : { streams: answer, key, version: nextVersion() };
}

/** What the monitor knows of one relay, as far as the stream lists need it. */
export interface RelayStreamsView {
  name: string;
  state: RelayState;
  /** The last list it answered; kept while it is suspect, dropped when it goes unreachable. */
  kept?: KeptStreams;
}

const listed = (relay: RelayStreamsView): relay is RelayStreamsView & { kept: KeptStreams } =>
  relay.state === 'reachable' && relay.kept !== undefined;

/**
 * Every reachable relay's streams, in the config's order: the `streams` answer and the
 * `onStreams` event. An unreachable or not yet checked relay is left out (`list` says why).
 */
export function mergeRelayStreams(relays: readonly RelayStreamsView[]): RelayStreams[] {
  return relays.filter(listed).map((relay) => ({ relay: relay.name, streams: [...relay.kept.streams] }));
}

/**
 * A fingerprint of the merged lists, from the relays listed and their lists' versions alone:
 * equal fingerprints mean nothing the console shows changed, so the lists are neither merged nor
 * sent again (the relays are polled every few seconds, hundreds of streams among them).
 */
export const streamsFingerprint = (relays: readonly RelayStreamsView[]): string =>
  JSON.stringify(relays.filter(listed).map((relay) => [relay.name, relay.kept.version]));
