import { Alert, List } from '@mantine/core';
import type { ProbeResult as Probe } from '../../../../src-shared/contract/relay';
import { describeCodec } from '../model/stream-rows';

/** What a probe found: the codecs and sizes the source offers, or why it could not be read. */
export function ProbeResult({ result }: { result: Probe }) {
  if (result.error) {
    return (
      <Alert color="red" title="The source did not play" data-testid="probe-result">
        {result.error}
      </Alert>
    );
  }
  return (
    <Alert color="green" title="The source answers" data-testid="probe-result">
      <List size="sm">
        {(result.codecs.length ? result.codecs.map(describeCodec) : result.medias).map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
