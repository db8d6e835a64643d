import type { RelayHealth, RelayInfo } from '@shared/contract/relays';
import { formatBytes, formatDuration } from '@renderer/ui/format';

/** A time of day in the reader's locale: when a relay went away is within the last hours, seldom days. */
const defaultTime = (ms: number) => new Date(ms).toLocaleTimeString();

/** What a remote relay's tiles and its row say while it cannot be reached: "Relay north unreachable since 10:04:12: connection refused". */
export function unreachableSentence(relay: Pick<RelayInfo, 'name' | 'reason' | 'sinceMs'>, formatTime = defaultTime): string {
  const why = relay.reason ? `: ${relay.reason}` : '';
  return `Relay ${relay.name} unreachable since ${formatTime(relay.sinceMs)}${why}`;
}

/** The relay's state in a few words, for its badge: "reachable", "unreachable since 10:04:12: refused", "checking". */
export function relayStateText(relay: Pick<RelayInfo, 'state' | 'reason' | 'sinceMs'>, formatTime = defaultTime): string {
  switch (relay.state) {
    case 'reachable':
      return 'reachable';
    case 'checking':
      return 'checking';
    case 'unreachable':
      return `unreachable since ${formatTime(relay.sinceMs)}${relay.reason ? `: ${relay.reason}` : ''}`;
  }
}

/** A relay's own figures as label and value pairs, in the order the panel lists them; a figure the relay does not report is left out. */
export function healthFacts(health: RelayHealth): Array<{ label: string; value: string }> {
  const facts = [
    { label: 'Version', value: health.version },
    { label: 'Uptime', value: health.uptimeSeconds === undefined ? undefined : formatDuration(health.uptimeSeconds) },
    { label: 'Streams', value: String(health.streams) },
    { label: 'Producers', value: String(health.producers) },
    { label: 'Consumers', value: String(health.consumers) },
    { label: 'Received', value: formatBytes(health.bytesIn) },
    { label: 'Sent', value: formatBytes(health.bytesOut) },
  ];
  return facts.filter((fact): fact is { label: string; value: string } => fact.value !== undefined);
}
