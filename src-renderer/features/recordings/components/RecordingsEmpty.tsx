import { Anchor, Code, Stack, Text } from '@mantine/core';
import { hashOf } from '../../../app/sections';

const EXAMPLE = `recordings:
  cam:                  # a stream of streams:
    bucket: demo        # a bucket of the embedded storage (account: names another)
    segment: 10s
    schedule: always    # always | calendar | mon-fri 08:00-18:00
    retain_days: 30`;

/** No stream is recorded: how to turn recording on, with the config's section to do it in. */
export function RecordingsEmpty() {
  return (
    <div className="panel empty-state" data-testid="recordings-empty">
      <Stack gap="sm">
        <Text>
          No camera is recorded yet. Add a <Code>recordings:</Code> section to the config: each stream named there is recorded into a
          bucket, always, on weekly windows or during the synced calendar&apos;s meetings.
        </Text>
        <Code block aria-label="An example recordings section">
          {EXAMPLE}
        </Code>
        <Text>
          <Anchor href={hashOf('config')} underline="always">
            Open the config editor
          </Anchor>{' '}
          to add it, then save and restart.
        </Text>
      </Stack>
    </div>
  );
}
