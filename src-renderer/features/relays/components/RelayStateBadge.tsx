import { Badge } from '@mantine/core';
import type { RelayInfo, RelayState } from '@shared/contract/relays';
import { relayStateText } from '../model/relay-state-text';

const COLOR: Record<RelayState, string> = { reachable: 'green', checking: 'yellow', unreachable: 'red' };

/** A relay's state as a coloured dot and words: "reachable", "checking", "unreachable since 10:04:12: connection refused". */
export function RelayStateBadge({ relay }: { relay: Pick<RelayInfo, 'state' | 'reason' | 'sinceMs'> }) {
  const text = relayStateText(relay);
  return (
    <Badge color={COLOR[relay.state]} variant="dot" data-state={relay.state} tt="none" maw="100%" title={text}>
      {text}
    </Badge>
  );
}
