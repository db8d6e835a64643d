import { Alert, Stack } from '@mantine/core';
import { getHotkeyHandler } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, type FieldPath } from 'react-hook-form';
import type { AssignmentPolicy, AssignmentPolicyBody, PolicyProblem } from '@shared/contract/directory';
import { ContractFailure } from '@shared/contract/result';
import { useApi } from '@renderer/api/api-context';
import { callService, serviceKey } from '@renderer/api/service-query';
import { useUi } from '@renderer/app/ui-store-context';
import { DeletePolicyDialog } from '../components/DeletePolicyDialog';
import { DiscardChangesDialog } from '../components/DiscardChangesDialog';
import { SaveAttemptContext } from './fields/save-attempt';
import { PolicySaveBar } from './PolicySaveBar';
import { PolicyTabs } from './PolicyTabs';
import { ProblemList } from './ProblemList';
import { policyFormValues } from '../model/policy-form-values';
import { errorPaths, fieldPath, graphFieldError, problemsPerTab, tabOfPath, type PolicyTab } from '../model/policy-problems';
import { policyResolver } from '../model/policy-resolver';
import { packageReads, useDeletePolicy } from '../use-directory';
import { useLeaveGuard } from './use-leave-guard';

export interface PolicyFormProps {
  /** The policy being edited, or undefined for a new one (saved with a POST). */
  policyId: string | undefined;
  initial: AssignmentPolicyBody;
  /** What the service has (the Review tab's "now"); null for a new policy. */
  saved: AssignmentPolicyBody | null;
  packageName: string;
}

/**
 * The whole policy as one form in the admin center's tabs. It is checked by the shared
 * validation as it is typed; Graph's own refusals come back to the field they name.
 */
export function PolicyForm({ policyId, initial, saved, packageName }: PolicyFormProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useUi((s) => s.navigate);
  // Checked when saving, then as the person fixes things: a message appearing when a field
  // loses focus would move the Save button from under the click that blurred it.
  const form = useForm<AssignmentPolicyBody>({
    defaultValues: initial,
    resolver: policyResolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [tab, setTab] = useState<PolicyTab>('basics');
  const [focusPath, setFocusPath] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeletePolicy();
  // Leaving with unsaved edits asks first (links, the Directory tabs, back, closing the window).
  const leave = useLeaveGuard(form.formState.isDirty);

  const save = useMutation({
    mutationFn: (body: AssignmentPolicyBody): Promise<AssignmentPolicy> =>
      policyId
        ? callService(api, 'directoryPolicies', 'update', { policyId, policy: body })
        : callService(api, 'directoryPolicies', 'create', { policy: body }),
  });

  // A field in another tab is focused once its tab is shown (hidden fields cannot take focus).
  useEffect(() => {
    if (!focusPath) return;
    const timer = setTimeout(() => form.setFocus(focusPath as FieldPath<AssignmentPolicyBody>), 0);
    setFocusPath(null);
    return () => clearTimeout(timer);
  }, [focusPath, form, tab]);

  const showProblemAt = (path: string) => {
    setTab(tabOfPath(path));
    setFocusPath(fieldPath(path));
  };

  const placeServerError = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const problems = error instanceof ContractFailure ? (error.details as { problems?: PolicyProblem[] } | undefined)?.problems : undefined;
    if (problems?.length) {
      for (const problem of problems)
        form.setError(fieldPath(problem.path) as FieldPath<AssignmentPolicyBody>, { type: problem.code, message: problem.message });
      showProblemAt(problems[0]!.path);
      return;
    }
    const atField = graphFieldError(message);
    if (atField) {
      form.setError(atField.path as FieldPath<AssignmentPolicyBody>, { type: 'server', message: atField.message });
      showProblemAt(atField.path);
      return;
    }
    setFormError(message);
  };

  const [saveAttempted, setSaveAttempted] = useState(false);
  const validateAndSave = form.handleSubmit(
    async (body) => {
      setFormError(null);
      try {
        const result = await save.mutateAsync(body);
        await queryClient.invalidateQueries(packageReads());
        notifications.show({
          color: 'green',
          title: 'Policy saved',
          message: `“${result.displayName ?? body.displayName}” is saved in the directory.`,
        });
        if (policyId) {
          queryClient.setQueryData(serviceKey('directoryPolicies', 'get', { policyId }), result);
          form.reset(policyFormValues(result));
        } else {
          leave.allowLeaving();
          navigate({ section: 'directory', view: 'policy', policyId: result.id });
        }
      } catch (error) {
        placeServerError(error);
      }
    },
    (errors) => {
      const first = errorPaths(errors)[0];
      if (first !== undefined) showProblemAt(first);
    },
  );
  const submit = (event?: React.BaseSyntheticEvent) => {
    setSaveAttempted(true);
    return validateAndSave(event);
  };

  const perTab = problemsPerTab(errorPaths(form.formState.errors));
  const dirty = form.formState.isDirty;
  const packageId = initial.accessPackage.id;
  return (
    <FormProvider {...form}>
      <SaveAttemptContext.Provider value={saveAttempted}>
        <form
          onSubmit={submit}
          noValidate
          aria-label={policyId ? 'Edit assignment policy' : 'New assignment policy'}
          onKeyDown={getHotkeyHandler([['mod+S', () => void submit()]])}
        >
          <Stack gap="md">
            <PolicyTabs tab={tab} onTab={setTab} perTab={perTab} packageName={packageName} saved={saved} policyId={policyId} />
            <ProblemList onOpen={showProblemAt} />
            {formError ? (
              <Alert color="red" role="alert" title="The service did not save the policy">
                {formError}
              </Alert>
            ) : null}
            <PolicySaveBar
              policyId={policyId}
              packageId={packageId}
              saving={save.isPending}
              dirty={dirty}
              reviewing={tab === 'review'}
              onDiscard={() => (form.reset(), setFormError(null), setSaveAttempted(false))}
              onReview={() => setTab('review')}
              onDelete={() => setDeleting(true)}
            />
            {remove.isError ? (
              <Alert color="red" role="alert" title="The policy was not deleted">
                {remove.error.message}
              </Alert>
            ) : null}
          </Stack>
        </form>
      </SaveAttemptContext.Provider>
      <DiscardChangesDialog opened={leave.asking} onKeepEditing={leave.keepEditing} onDiscard={leave.discard} />
      <DeletePolicyDialog
        policy={deleting && policyId ? { id: policyId, displayName: initial.displayName } : null}
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={(policy) =>
          remove.mutate(
            { policyId: policy.id },
            {
              onSuccess: () => {
                leave.allowLeaving();
                navigate({ section: 'directory', view: 'packages', packageId });
              },
              onSettled: () => setDeleting(false),
            },
          )
        }
      />
    </FormProvider>
  );
}
