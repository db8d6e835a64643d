import { Alert, List } from '@mantine/core';
import type { ProbeResult as Probe } from '@shared/contract/relay';
import { describeCodec } from '../model/stream-rows';

/** What a probe found: the codecs and sizes the source offers, or why it could not be read. */
export function ProbeResult({ result, title }: { result: Probe; title?: string }) {
  const of = title ? `: ${title}` : '';
  if (result.error) {
    return (
      <Alert color="red" title={`The source did not play${of}`} data-testid="probe-result">
        {result.error}
      </Alert>
    );
  }
  return (
    <Alert color="green" title={`The source answers${of}`} data-testid="probe-result">
      <List size="sm">
        {(result.codecs.length ? result.codecs.map(describeCodec) : result.medias).map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
