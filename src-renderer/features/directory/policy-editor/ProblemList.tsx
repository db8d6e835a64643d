import { Alert, Anchor, List } from '@mantine/core';
import { get, useFormState } from 'react-hook-form';
import { errorPaths, POLICY_TAB_LABELS, tabOfPath } from '../model/policy-problems';
import { useSaveAttempted } from './fields/save-attempt';

const MAX_SHOWN = 8;

/**
 * After a save that did not go out: every problem in one list, each naming its tab and opening
 * its field, so a problem in another tab (or at a part the form has no field for) is not missed.
 */
export function ProblemList({ onOpen }: { onOpen(path: string): void }) {
  const { errors } = useFormState();
  const paths = errorPaths(errors);
  const attempted = useSaveAttempted();
  if (!attempted || paths.length === 0) return null;
  return (
    <Alert
      color="red"
      title={
        paths.length === 1 ? 'One problem keeps this policy from being saved' : `${paths.length} problems keep this policy from being saved`
      }
      data-testid="policy-problems"
    >
      <List size="sm" spacing={2}>
        {paths.slice(0, MAX_SHOWN).map((path) => (
          <List.Item key={path} data-path={path}>
            <Anchor component="button" type="button" size="sm" c="inherit" fw={600} underline="always" onClick={() => onOpen(path)}>
              {POLICY_TAB_LABELS[tabOfPath(path)]}
            </Anchor>
            : {String((get(errors, path) as { message?: string } | undefined)?.message ?? path)}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
