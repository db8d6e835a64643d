import { Code, Text } from '@mantine/core';

const EXAMPLE = `relays:
  north:
    url: http://10.0.0.5:1984
    username: admin            # optional, when its API asks for a login
    password: \${NORTH_PASSWORD}`;

/** No remote relays yet: what they are for, and the two ways to add one. */
export function RelaysEmpty() {
  return (
    <div className="empty-state" data-testid="relays-empty">
      <Text size="sm">
        No remote relays: add one with <strong>Add relay</strong> (any server that speaks go2rtc&apos;s API: another Relay Console, go2rtc,
        Frigate), or list them under <code>relays:</code> in the config file:
      </Text>
      <Code block className="relays-example">
        {EXAMPLE}
      </Code>
    </div>
  );
}
