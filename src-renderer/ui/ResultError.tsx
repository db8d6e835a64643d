import { ContractFailure } from '../../src-shared/contract/result';

/** Shows an error value from the contract the way the user needs it: what failed and why. */
export function ResultError({ error, title }: { error: unknown; title?: string }) {
  const code = error instanceof ContractFailure ? error.code : 'error';
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="panel error-panel">
      <strong>{title ?? (code === 'unavailable' ? 'The console engine is not answering' : 'Request failed')}</strong>
      <p>{message}</p>
    </div>
  );
}
