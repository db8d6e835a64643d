import type { ContractErrorCode } from './error-codes';

/** Errors cross the contract as values, never as thrown exceptions. */
interface ContractError {
  /** A stable machine-readable code, one of CONTRACT_ERROR_CODES. */
  code: ContractErrorCode;
  /** A sentence for the user that says what was wrong. */
  message: string;
  details?: unknown;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ContractError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = (code: ContractErrorCode, message: string, details?: unknown): Result<never> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

/** Thrown inside a service implementation to answer with a specific error code. */
export class ContractFailure extends Error {
  constructor(
    readonly code: ContractErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ContractFailure';
  }
}

/** Unwraps a result in places that prefer exceptions (React Query's queryFn). */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new ContractFailure(result.error.code, result.error.message, result.error.details);
}
