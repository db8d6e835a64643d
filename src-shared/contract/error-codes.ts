/**
 * Every code a contract error carries, each with what it tells the caller to do. Written once:
 * the services throw these, the renderer's transport adds its own two, and the renderer branches
 * on them; a code outside this list is a type error on both ends.
 */
export const CONTRACT_ERROR_CODES = {
  invalid_input: 'the request is malformed or a value is out of range: the message names it; change the input',
  not_found: 'the thing named does not exist (or no longer does)',
  conflict: 'the thing exists already, or changed meanwhile: read it again, then decide',
  unauthenticated: 'the service refused the credentials or the sign-in expired: sign in again or check the keys',
  forbidden: 'signed in, but not allowed to do this',
  unavailable: 'the service did not answer or is overloaded: trying again later may work',
  internal: 'a fault in the console itself: the message and the log say where',
  contract_mismatch: 'an answer did not match the contract (main and renderer of different versions)',
  not_connected: 'the renderer is not connected to the console engine: nothing was sent',
} as const;

export type ContractErrorCode = keyof typeof CONTRACT_ERROR_CODES;

export const isContractErrorCode = (code: unknown): code is ContractErrorCode =>
  typeof code === 'string' && Object.hasOwn(CONTRACT_ERROR_CODES, code);
