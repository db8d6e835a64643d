import type { ContractErrorCode } from '@shared/contract/error-codes';
import { ContractFailure } from '@shared/contract/result';
import { RemoteAnswerError } from './remote-answers';
import { RelayHttpError, statusReason, type RelayAnswer } from './relay-http';

/** A remote relay's HTTP status as the contract's error code: its refusal is the caller's to fix, its silence is not. */
export function codeOfStatus(status: number | undefined): ContractErrorCode {
  switch (status) {
    case 400:
    case 413:
    case 422:
      return 'invalid_input';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
    case 410:
      return 'not_found';
    case 409:
      return 'conflict';
    default:
      return 'unavailable';
  }
}

/** Any failure of a call to relay `relay` as a ContractFailure naming the relay and, where it said one, its message. */
export function remoteFailure(relay: string, error: unknown): ContractFailure {
  if (error instanceof ContractFailure) return error;
  if (error instanceof RelayHttpError) return new ContractFailure(codeOfStatus(error.status), `relay ${relay}: ${error.reason}`);
  if (error instanceof RemoteAnswerError) return new ContractFailure('unavailable', `relay ${relay}: ${error.message}`);
  return new ContractFailure('internal', `relay ${relay}: ${(error as Error).message}`);
}

/** An answer that must be 2xx, else the failure it stands for. */
export function expectOk(relay: string, answer: RelayAnswer): RelayAnswer {
  if (answer.status >= 200 && answer.status < 300) return answer;
  throw new ContractFailure(codeOfStatus(answer.status), `relay ${relay}: ${statusReason(answer)}`);
}
