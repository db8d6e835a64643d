import type { RelayHealth as Health } from '@shared/contract/relays';
import { healthFacts } from '../model/relay-state-text';

/** What a relay reports of itself, as a compact list of figures. */
export function RelayHealth({ health, label }: { health: Health; label: string }) {
  return (
    <dl className="relay-health" aria-label={label}>
      {healthFacts(health).map((fact) => (
        <div key={fact.label}>
          <dt>{fact.label}</dt>
          <dd>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
