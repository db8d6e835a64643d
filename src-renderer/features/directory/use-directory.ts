import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssignmentColumn, AssignmentFilter } from '@shared/contract/directory';
import type { GraphExchange } from '@shared/contract/graph-traffic';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter, serviceKey } from '../../api/service-query';
import { usePreferences } from '../../api/use-preferences';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceMutation, useServiceQuery } from '../../api/use-service-query';

export function usePackages() {
  return useServiceQuery('directoryPackages', 'packages');
}

/** A catalog's custom workflow extensions; an error (or a service that does not list them) is the caller's to show. */
export function useCustomExtensions(catalogId: string | undefined) {
  return useServiceQuery(
    'directoryPackages',
    'customExtensions',
    { catalogId: catalogId ?? '' },
    {
      enabled: catalogId !== undefined,
      // Not listed is an answer (the extension id is typed instead), not a hiccup to retry.
      retry: false,
      staleTime: 60_000,
    },
  );
}

/** The catalog of the package a policy belongs to, from the package listing. */
export function usePackageCatalogId(packageId: string | undefined): string | undefined {
  const packages = usePackages();
  return packages.data?.find((p) => p.id === packageId)?.catalog?.id ?? undefined;
}

export function usePolicy(policyId: string | undefined) {
  return useServiceQuery(
    'directoryPolicies',
    'get',
    { policyId: policyId ?? '' },
    {
      enabled: policyId !== undefined,
      // The editor keeps what it loaded: a refetch must not reset a form being edited.
      staleTime: Infinity,
      refetchOnWindowFocus: false,
    },
  );
}

/** Packages list their policies: every read of the packages service is refreshed after a policy is saved or deleted. */
export const packageReads = () => serviceFilter('directoryPackages');

export function useDeletePolicy() {
  const queryClient = useQueryClient();
  return useServiceMutation('directoryPolicies', 'remove', { onSuccess: () => queryClient.invalidateQueries(packageReads()) });
}

export function useAssignmentPage(filter: AssignmentFilter, columns: AssignmentColumn[], next: string | undefined, pageSize: number) {
  return useServiceQuery(
    'directoryAssignments',
    'list',
    { filter, columns, pageSize, ...(next ? { next } : {}) },
    { placeholderData: keepPreviousData },
  );
}

export function useAssignment(assignmentId: string | undefined) {
  return useServiceQuery(
    'directoryAssignments',
    'get',
    { assignmentId: assignmentId ?? '', expand: ['target', 'accessPackage', 'assignmentPolicy'] },
    { enabled: assignmentId !== undefined },
  );
}

export function useUnits() {
  return useServiceQuery('directoryRoles', 'units');
}

export function useUnitMembers(unitId: string | undefined) {
  return useServiceQuery('directoryRoles', 'members', { administrativeUnitId: unitId ?? '' }, { enabled: unitId !== undefined });
}

/** The roles a unit can scope; they change rarely, so one read serves every dialog for a minute. */
export function useScopableRoles(enabled: boolean) {
  return useServiceQuery('directoryRoles', 'scopableRoles', undefined, { enabled, staleTime: 60_000 });
}

/** Gives a person a role in a unit; the member list is read again after, a refusal too (someone else may have changed it). */
export function useAddScopedMember(unitId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { roleId: string; memberId: string }) =>
      callService(api, 'directoryRoles', 'addMember', { administrativeUnitId: unitId, ...input }),
    onSettled: () => queryClient.invalidateQueries(serviceFilter('directoryRoles', 'members', { administrativeUnitId: unitId })),
  });
}

/** Takes a role membership away; the list is read again even after a refusal (it may be gone already). */
export function useRemoveScopedMember(unitId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (membershipId: string) =>
      callService(api, 'directoryRoles', 'removeMember', { administrativeUnitId: unitId, membershipId }),
    onSettled: () => queryClient.invalidateQueries(serviceFilter('directoryRoles', 'members', { administrativeUnitId: unitId })),
  });
}

export function useUserSearch(text: string) {
  return useServiceQuery('directoryPeople', 'searchUsers', { text, limit: 20 }, { placeholderData: keepPreviousData });
}

/** Names for user ids a policy already holds (one request for all of them). */
export function useUserNames(ids: string[]) {
  const sorted = [...new Set(ids.filter(Boolean))].sort();
  return useServiceQuery('directoryPeople', 'usersById', { ids: sorted }, { enabled: sorted.length > 0, staleTime: 60_000 });
}

/** The assignment columns the person chose, kept by main with the other console preferences. */
export function useAssignmentColumns() {
  const api = useApi();
  const queryClient = useQueryClient();
  const preferences = usePreferences();
  const stored = serviceKey('preferences', 'get');
  const save = useMutation({
    mutationFn: (assignmentColumns: AssignmentColumn[]) => callService(api, 'preferences', 'setDirectoryView', { assignmentColumns }),
    onMutate: (assignmentColumns) => queryClient.setQueryData(stored, (old) => (old ? { ...old, directory: { assignmentColumns } } : old)),
    onSuccess: (saved) => queryClient.setQueryData(stored, saved),
  });
  return { columns: preferences.data?.directory.assignmentColumns, save };
}

/** The last 500 exchanges: the one list the traffic view reads, and main's pushes extend. */
const RECENT_TRAFFIC = { limit: 500 };

/** Recent Graph exchanges; main pushes each new one, so the list grows as requests go out. */
export function useGraphTraffic() {
  const api = useApi();
  const queryClient = useQueryClient();
  const recent = serviceKey('graphTraffic', 'recent', RECENT_TRAFFIC);
  useServiceEvent(api.graphTraffic.onExchange, (exchange: GraphExchange) =>
    queryClient.setQueryData(recent, (old) =>
      old && !old.some((e) => e.seq === exchange.seq) ? [exchange, ...old].slice(0, RECENT_TRAFFIC.limit) : old,
    ),
  );
  const traffic = useServiceQuery('graphTraffic', 'recent', RECENT_TRAFFIC, { staleTime: Infinity });
  const clear = useServiceMutation('graphTraffic', 'clear', { onSuccess: () => queryClient.setQueryData(recent, []) });
  return { traffic, clear };
}
