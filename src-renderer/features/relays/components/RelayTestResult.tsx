import { Alert } from '@mantine/core';
import type { RelayTest } from '@shared/contract/relays';
import { RelayHealth } from './RelayHealth';

/** What a test found at a relay's address: its own figures, or why it cannot be used. */
export function RelayTestResult({ result, what }: { result: RelayTest; what: string }) {
  if (!result.ok) {
    return (
      <Alert color="red" title={`${what} cannot be used`} data-testid="relay-test-result">
        {result.error ?? 'it did not answer as a go2rtc-compatible relay'}
      </Alert>
    );
  }
  return (
    <Alert color="green" title={`${what} answers`} data-testid="relay-test-result">
      {result.health ? <RelayHealth health={result.health} label={`What ${what} reports`} /> : 'It answered as a relay.'}
    </Alert>
  );
}
