import type { StreamSummary } from '@shared/contract/relay';
import type { RelayState, RelayStreams } from '@shared/contract/relays';

/** What the monitor knows of one relay, as far as the stream lists need it. */
export interface RelayStreamsView {
  name: string;
  state: RelayState;
  /** The last list it answered; kept while it is suspect, dropped when it goes unreachable. */
  streams?: readonly StreamSummary[];
}

/**
 * Every reachable relay's streams, in the config's order: the `streams` answer and the
 * `onStreams` event. An unreachable or not yet checked relay is left out (`list` says why).
 */
export function mergeRelayStreams(relays: readonly RelayStreamsView[]): RelayStreams[] {
  return relays.flatMap((relay) =>
    relay.state === 'reachable' && relay.streams ? [{ relay: relay.name, streams: [...relay.streams] }] : [],
  );
}

/**
 * A fingerprint of the merged lists: equal fingerprints mean nothing the console shows changed,
 * so the event is not sent again (the relays are polled every few seconds).
 */
export const streamsFingerprint = (merged: readonly RelayStreams[]): string => JSON.stringify(merged);
