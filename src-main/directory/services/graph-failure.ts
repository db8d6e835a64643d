import type { ContractErrorCode } from '@shared/contract/error-codes';
import { ContractFailure } from '@shared/contract/result';
import { isGraphError, type GraphError } from '../client/graph-error';

/** The contract error code for a Graph status. */
export function contractCodeFor(status: number): ContractErrorCode {
  if (status === 400 || status === 422) return 'invalid_input';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 0 || status === 429 || status >= 500) return 'unavailable';
  return 'internal';
}

/** A GraphError as the contract's error value: Graph's message, its code and ids in details.graph. */
export function graphFailure(error: GraphError): ContractFailure {
  return new ContractFailure(contractCodeFor(error.status), error.message, { graph: error.toJSON() });
}

/** Runs a Graph call; a GraphError leaves as a ContractFailure, anything else as it is. */
export async function callGraph<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isGraphError(error)) throw graphFailure(error);
    throw error;
  }
}

/** `$select` always asks for the id too: the contract's objects are keyed by it. */
export function selectWithId(select: readonly string[] | undefined): string | undefined {
  if (!select || select.length === 0) return undefined;
  return [...new Set(['id', ...select])].join(',');
}
