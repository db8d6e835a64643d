import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AssignmentColumn, AssignmentFilter } from '../../../src-shared/contract/directory';
import type { GraphExchange } from '../../../src-shared/contract/graph-traffic';
import type { Preferences } from '../../../src-shared/contract/preferences';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { usePreferences } from '../../api/use-preferences';
import { useServiceEvent } from '../../api/use-service-event';

export function usePackages() {
  const api = useApi();
  return useQuery({ queryKey: [...queryKeys.directoryPackages, 'packages'], queryFn: async () => unwrap(await api.directoryPackages.packages()) });
}

/** A catalog's custom workflow extensions; an error (or a service that does not list them) is the caller's to show. */
export function useCustomExtensions(catalogId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.directoryPackages, 'customExtensions', catalogId ?? ''],
    queryFn: async () => unwrap(await api.directoryPackages.customExtensions({ catalogId: catalogId! })),
    enabled: catalogId !== undefined,
    // Not listed is an answer (the extension id is typed instead), not a hiccup to retry.
    retry: false,
    staleTime: 60_000,
  });
}

/** The catalog of the package a policy belongs to, from the package listing. */
export function usePackageCatalogId(packageId: string | undefined): string | undefined {
  const packages = usePackages();
  return packages.data?.find((p) => p.id === packageId)?.catalog?.id ?? undefined;
}

export function usePolicy(policyId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.directoryPolicy(policyId ?? ''),
    queryFn: async () => unwrap(await api.directoryPolicies.get({ policyId: policyId! })),
    enabled: policyId !== undefined,
    // The editor keeps what it loaded: a refetch must not reset a form being edited.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useDeletePolicy() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (policyId: string) => unwrap(await api.directoryPolicies.remove({ policyId })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.directoryPackages }),
  });
}

export function useAssignmentPage(filter: AssignmentFilter, columns: AssignmentColumn[], next: string | undefined, pageSize: number) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.directoryAssignments, 'list', filter, columns, next ?? null, pageSize],
    queryFn: async () => unwrap(await api.directoryAssignments.list({ filter, columns, pageSize, ...(next ? { next } : {}) })),
    placeholderData: keepPreviousData,
  });
}

export function useAssignment(assignmentId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.directoryAssignments, 'get', assignmentId ?? ''],
    queryFn: async () => unwrap(await api.directoryAssignments.get({ assignmentId: assignmentId!, expand: ['target', 'accessPackage', 'assignmentPolicy'] })),
    enabled: assignmentId !== undefined,
  });
}

export function useUnits() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.directoryUnits, queryFn: async () => unwrap(await api.directoryRoles.units()) });
}

export function useUnitMembers(unitId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.directoryMembers(unitId ?? ''),
    queryFn: async () => unwrap(await api.directoryRoles.members({ administrativeUnitId: unitId! })),
    enabled: unitId !== undefined,
  });
}

/** The roles a unit can scope; they change rarely, so one read serves every dialog for a minute. */
export function useScopableRoles(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.directoryScopableRoles,
    queryFn: async () => unwrap(await api.directoryRoles.scopableRoles()),
    enabled,
    staleTime: 60_000,
  });
}

/** Gives a person a role in a unit; the member list is read again after, a refusal too (someone else may have changed it). */
export function useAddScopedMember(unitId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { roleId: string; memberId: string }) => unwrap(await api.directoryRoles.addMember({ administrativeUnitId: unitId, ...input })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.directoryMembers(unitId) }),
  });
}

/** Takes a role membership away; the list is read again even after a refusal (it may be gone already). */
export function useRemoveScopedMember(unitId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (membershipId: string) => unwrap(await api.directoryRoles.removeMember({ administrativeUnitId: unitId, membershipId })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.directoryMembers(unitId) }),
  });
}

export function useUserSearch(text: string) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.directoryPeople, 'search', text],
    queryFn: async () => unwrap(await api.directoryPeople.searchUsers({ text, limit: 20 })),
    placeholderData: keepPreviousData,
  });
}

/** Names for user ids a policy already holds (one request for all of them). */
export function useUserNames(ids: string[]) {
  const api = useApi();
  const sorted = [...new Set(ids.filter(Boolean))].sort();
  return useQuery({
    queryKey: [...queryKeys.directoryPeople, 'byId', sorted],
    queryFn: async () => unwrap(await api.directoryPeople.usersById({ ids: sorted })),
    enabled: sorted.length > 0,
    staleTime: 60_000,
  });
}

/** The assignment columns the person chose, kept by main with the other console preferences. */
export function useAssignmentColumns() {
  const api = useApi();
  const queryClient = useQueryClient();
  const preferences = usePreferences();
  const save = useMutation({
    mutationFn: async (assignmentColumns: AssignmentColumn[]) => unwrap(await api.preferences.setDirectoryView({ assignmentColumns })),
    onMutate: (assignmentColumns) => queryClient.setQueryData<Preferences>(queryKeys.preferences, (old) => (old ? { ...old, directory: { assignmentColumns } } : old)),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.preferences, saved),
  });
  return { columns: preferences.data?.directory.assignmentColumns, save };
}

/** Recent Graph exchanges; main pushes each new one, so the list grows as requests go out. */
export function useGraphTraffic() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.graphTraffic.onExchange, (exchange: GraphExchange) =>
    queryClient.setQueryData<GraphExchange[]>(queryKeys.graphTraffic, (old) => (old && !old.some((e) => e.seq === exchange.seq) ? [exchange, ...old].slice(0, 500) : old)),
  );
  const traffic = useQuery({ queryKey: queryKeys.graphTraffic, queryFn: async () => unwrap(await api.graphTraffic.recent({ limit: 500 })), staleTime: Infinity });
  const clear = useMutation({
    mutationFn: async () => unwrap(await api.graphTraffic.clear()),
    onSuccess: () => queryClient.setQueryData(queryKeys.graphTraffic, []),
  });
  return { traffic, clear };
}
