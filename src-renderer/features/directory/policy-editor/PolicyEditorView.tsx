import { Anchor, Breadcrumbs, Stack, Title } from '@mantine/core';
import { printRoute } from '@renderer/app/routes';
import { LoadingLine } from '@renderer/ui/LoadingLine';
import { ResultError } from '@renderer/ui/ResultError';
import { duplicatePolicyValues, newPolicyValues, policyFormValues } from '../model/policy-form-values';
import { usePackages, usePolicy } from '../use-directory';
import { PolicyForm } from './PolicyForm';

export type EditorMode = { kind: 'edit'; policyId: string } | { kind: 'new'; packageId: string; copyOf?: string | undefined };

/** `#/directory/policies/<id>` and `#/directory/packages/<id>/new[/<copy of>]`: the policy editor, once its data is read. */
export function PolicyEditorView({ mode }: { mode: EditorMode }) {
  const policy = usePolicy(mode.kind === 'edit' ? mode.policyId : mode.copyOf);
  const packages = usePackages();
  const packageId = mode.kind === 'new' ? mode.packageId : (policy.data?.accessPackage?.id ?? undefined);
  const pkg = packages.data?.find((p) => p.id === packageId);
  const packageName =
    pkg?.displayName ?? (policy.data?.accessPackage as { displayName?: string } | undefined)?.displayName ?? packageId ?? '';

  const needsPolicy = mode.kind === 'edit' || mode.copyOf !== undefined;
  if (needsPolicy && policy.isPending) return <LoadingLine>Reading the policy…</LoadingLine>;
  if (needsPolicy && policy.isError) {
    return (
      <Stack gap="xs">
        <ResultError error={policy.error} title="The policy could not be read" />
        <Anchor href={printRoute({ section: 'directory', view: 'packages' })}>Show the access packages</Anchor>
      </Stack>
    );
  }
  if (mode.kind === 'new' && packages.isPending) return <LoadingLine>Reading the access package…</LoadingLine>;

  const title =
    mode.kind === 'edit'
      ? (policy.data?.displayName ?? 'Policy')
      : mode.copyOf
        ? `Copy of ${policy.data?.displayName ?? 'a policy'}`
        : 'New assignment policy';
  const initial =
    mode.kind === 'edit'
      ? policyFormValues(policy.data!)
      : mode.copyOf
        ? { ...duplicatePolicyValues(policy.data!), accessPackage: { id: mode.packageId } }
        : newPolicyValues(mode.packageId);
  return (
    <Stack gap="sm">
      <Breadcrumbs>
        <Anchor href={printRoute({ section: 'directory', view: 'packages' })}>Access packages</Anchor>
        {packageId ? <Anchor href={printRoute({ section: 'directory', view: 'packages', packageId })}>{packageName}</Anchor> : null}
        <span>{title}</span>
      </Breadcrumbs>
      <Title order={2} size="h3">
        {title}
      </Title>
      <PolicyForm
        policyId={mode.kind === 'edit' ? mode.policyId : undefined}
        initial={initial}
        saved={mode.kind === 'edit' ? policyFormValues(policy.data!) : null}
        packageName={packageName}
      />
    </Stack>
  );
}
