import type { ContractErrorCode } from '@shared/contract/error-codes';
import { ContractFailure } from '@shared/contract/result';

/** What Kodo's status codes mean, in a sentence a person can act on. */
const SENTENCES: Record<number, { code: ContractErrorCode; sentence: string }> = {
  400: { code: 'invalid_input', sentence: 'the request was refused as malformed' },
  401: { code: 'unauthenticated', sentence: 'the keys were refused: check the AccessKey and SecretKey, or the token has expired' },
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
  const detail =
    typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : undefined;
  const known = SENTENCES[status];
  const sentence = known?.sentence ?? 'the service answered with an error';
  return new ContractFailure(
    known?.code ?? 'unavailable',
    `Kodo ${status}: ${sentence}${detail && detail !== sentence ? ` (${detail})` : ''}`,
  );
}

/** A request that never got an answer: the address is wrong, the service is down, or there is no network. */
export function unreachable(error: unknown, where: string): ContractFailure {
  return new ContractFailure('unavailable', `the storage service at ${where} could not be reached: ${networkProblem(error)}`);
}

const CERTIFICATE = /^(CERT_|ERR_TLS_CERT|SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)_)/;

/**
 * Why a request got no answer, in a sentence a person can act on. The SDK's HTTP client (urllib)
 * says it as `getaddrinfo ENOTFOUND uc.qbox.me, POST https://... -1 (connected: false, keepalive
 * socket: false, ...)`: the system error code and its host are what matter.
 */
export function networkProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const named = typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : /\b(E[A-Z]{3,}|[A-Z]+(?:_[A-Z]+){2,})\b/.exec(message)?.[1];
  const host = /\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT)\s+([^\s,]+)/.exec(message)?.[1];
  const at = host ? ` ${host}` : '';
  switch (named) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the name${at} does not resolve: this computer may be offline, or the address is wrong`;
    case 'ECONNREFUSED':
      return `nothing answers at${at || ' that address'}: the service is down or the address is wrong`;
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `no answer in time${host ? ` from ${host}` : ''}: the network or the service is slow or down`;
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the connection was cut before an answer came: try again';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no route to${at || ' the service'}: check this computer's network`;
  }
  if (named && CERTIFICATE.test(named)) return `the service's certificate is not trusted (${named}): check the address, or trust its CA`;
  // Anything else: the first clause, without the client's dump of the request and its sockets.
  return (
    message
      .replace(/,\s*(GET|POST|PUT|DELETE|HEAD) https?:\/\/[\s\S]*$/, '')
      .replace(/\s+/g, ' ')
      .trim() || 'no answer'
  );
}
