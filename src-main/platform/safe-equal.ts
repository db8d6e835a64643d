import { timingSafeEqual } from 'node:crypto';

/**
 * Compares a secret someone sent with the one expected in time that does not depend on where
 * they first differ, so a password cannot be guessed a character at a time from answer times.
 * (The length is not hidden: secrets of another length are refused at once.)
 */
export function safeEqual(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}
