import { get, useFormState } from 'react-hook-form';
import { useSaveAttempted } from './save-attempt';

/**
 * The message at a path of the policy form (a field, or a list such as a stage's approvers),
 * once the person has left the field or tried to save: a field just added is not red before
 * it was typed in, and messages appearing under other fields do not move what is being clicked.
 */
export function useFieldError(name: string, { asTyped = false }: { asTyped?: boolean } = {}): string | undefined {
  const { errors, touchedFields, dirtyFields } = useFormState({ name: name as never });
  const attempted = useSaveAttempted();
  // `asTyped`: a field whose value is checked as it changes (a number out of range) says so
  // while the person is still in it, before anything else is clicked.
  if (!attempted && !get(touchedFields, name) && !(asTyped && get(dirtyFields, name))) return undefined;
  const error = get(errors, name) as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : undefined;
}
