import type { FieldErrors, Resolver } from 'react-hook-form';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { validatePolicyBody } from '@shared/directory/policy-validation';
import { withoutOtherKindFields } from './kind-fields';
import { problemsToErrors } from './policy-problems';

/**
 * The form's validation is the shared one the main process runs before a PUT (the contract's
 * zod schemas plus the rules between fields), so the form refuses exactly what would be refused
 * and its messages name the same paths.
 */
export const policyResolver: Resolver<AssignmentPolicyBody> = async (values) => {
  const { problems, body } = validatePolicyBody(withoutOtherKindFields(values));
  if (body) return { values: body, errors: {} };
  return { values: {}, errors: problemsToErrors(problems) as FieldErrors<AssignmentPolicyBody> };
};

/** The body a save would send: checked and reduced when valid, as typed otherwise (for the Review tab). */
export function bodyToSend(values: unknown): unknown {
  const cleaned = withoutOtherKindFields(values);
  return validatePolicyBody(cleaned).body ?? cleaned;
}
