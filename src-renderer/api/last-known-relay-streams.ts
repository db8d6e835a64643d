import type { RelayInfo, RelayStreams } from '@shared/contract/relays';

/**
 * The remote streams to show: those just listed, and for a relay that is still configured but
 * dropped out of the list (main lists reachable relays only), the streams it had, so its tiles
 * stay (saying why) rather than vanish, whichever of `onStreams` and `onRelays` comes first. A
 * relay that was removed leaves with its streams.
 */
export function keepLastKnown(
  previous: readonly RelayStreams[],
  next: readonly RelayStreams[],
  relays: readonly RelayInfo[],
): RelayStreams[] {
  const listed = new Set(next.map((entry) => entry.relay));
  const away = relays.filter((relay) => !listed.has(relay.name)).map((relay) => relay.name);
  return [...next, ...previous.filter((entry) => away.includes(entry.relay))];
}
