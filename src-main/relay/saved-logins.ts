import { MASKED_LOGIN } from '../../src-shared/contract/relay';
import { redactSource } from './core/redact-source';

export class MaskedLoginError extends Error {
  override name = 'MaskedLoginError';
}

/**
 * The sources to save, with each one the console sent back as it was shown (login masked)
 * replaced by the saved source it stands for: the console never sees passwords, so a rename
 * or a reorder must not make the user type them all again. Masked text that matches no saved
 * source is refused rather than saved with `***` as a password.
 */
export function restoreSavedLogins(submitted: readonly string[], saved: readonly string[]): string[] {
  return submitted.map((source) => {
    if (!source.includes(MASKED_LOGIN) || saved.includes(source)) return source;
    const original = saved.find((candidate) => redactSource(candidate) === source);
    if (original === undefined)
      throw new MaskedLoginError(`${source}: type the login again: saved passwords are never shown in the console`);
    return original;
  });
}
