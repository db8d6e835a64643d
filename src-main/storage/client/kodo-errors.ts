import { ContractFailure } from '../../../src-shared/contract/result';

/** What Kodo's status codes mean, in a sentence a person can act on. */
const SENTENCES: Record<number, { code: string; sentence: string }> = {
  400: { code: 'invalid_input', sentence: 'the request was refused as malformed' },
  401: { code: 'unauthorized', sentence: 'the keys were refused: check the AccessKey and SecretKey, or the token has expired' },
  403: { code: 'forbidden', sentence: 'this account may not do that (a quota, an IP allow-list or a disabled action)' },
  404: { code: 'not_found', sentence: 'not found' },
  406: { code: 'invalid_input', sentence: 'the upload does not match its checksum' },
  419: { code: 'forbidden', sentence: 'the account is frozen' },
  478: { code: 'unavailable', sentence: 'the mirror source failed' },
  573: { code: 'unavailable', sentence: 'too many requests: the service asks to slow down' },
  579: { code: 'unavailable', sentence: 'the upload callback failed' },
  599: { code: 'unavailable', sentence: 'the service had an error; try again' },
  608: { code: 'conflict', sentence: 'the file changed while this was done' },
  612: { code: 'not_found', sentence: 'no such file' },
  614: { code: 'conflict', sentence: 'a file with that name exists' },
  630: { code: 'invalid_input', sentence: 'too many buckets on this account' },
  631: { code: 'not_found', sentence: 'no such bucket' },
  640: { code: 'invalid_input', sentence: 'the listing position (marker) is not valid' },
  701: { code: 'invalid_input', sentence: 'a resumable upload block did not match; the upload starts that block again' },
};

/** A Kodo answer that is not a success, as a contract error: `Kodo 631: no such bucket (bucket not found)`. */
export function kodoFailure(status: number, body: unknown): ContractFailure {
  const detail = typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : undefined;
  const known = SENTENCES[status];
  const sentence = known?.sentence ?? 'the service answered with an error';
  return new ContractFailure(known?.code ?? 'unavailable', `Kodo ${status}: ${sentence}${detail && detail !== sentence ? ` (${detail})` : ''}`);
}

/** A request that never got an answer: the address is wrong or the service is down. */
export function unreachable(error: unknown, where: string): ContractFailure {
  const message = error instanceof Error ? error.message : String(error);
  return new ContractFailure('unavailable', `the storage service at ${where} did not answer: ${message}`);
}
