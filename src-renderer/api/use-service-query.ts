import { useMutation, useQuery, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import { useApi } from './api-context';
import {
  callService,
  serviceKey,
  serviceMutationOptions,
  type InputArg,
  type MethodInput,
  type MethodName,
  type MethodOutput,
  type ServiceKey,
  type ServiceName,
} from './service-query';

type QueryExtras<S extends ServiceName, M extends MethodName<S>, TData> = Omit<
  UseQueryOptions<MethodOutput<S, M>, Error, TData, ServiceKey<S, M>>,
  'queryKey' | 'queryFn'
>;

/** The input, left out for a method that takes none, then the query's other options. */
type QueryArgs<S extends ServiceName, M extends MethodName<S>, TData> =
  undefined extends MethodInput<S, M>
    ? [input?: MethodInput<S, M>, options?: QueryExtras<S, M, TData>]
    : [input: MethodInput<S, M>, options?: QueryExtras<S, M, TData>];

/**
 * `useQuery` of one call of the contract, keyed `[service, method, input]`:
 * `useServiceQuery('storage', 'listBuckets', { accountId }, { staleTime: 30_000 })`.
 */
export function useServiceQuery<S extends ServiceName, M extends MethodName<S>, TData = MethodOutput<S, M>>(
  service: S,
  method: M,
  ...[input, options]: QueryArgs<S, M, TData>
) {
  const api = useApi();
  const args = [input] as InputArg<S, M>;
  return useQuery({
    ...options,
    queryKey: serviceKey(service, method, ...args),
    queryFn: () => callService(api, service, method, ...args),
  });
}

type MutationExtras<S extends ServiceName, M extends MethodName<S>, TContext> = Omit<
  UseMutationOptions<MethodOutput<S, M>, Error, MethodInput<S, M>, TContext>,
  'mutationFn' | 'mutationKey'
>;

/** `useMutation` of one call of the contract: `useServiceMutation('relay', 'deleteStream', { onSuccess })`, then `mutate({ name })`. */
export function useServiceMutation<S extends ServiceName, M extends MethodName<S>, TContext = unknown>(
  service: S,
  method: M,
  options?: MutationExtras<S, M, TContext>,
) {
  const api = useApi();
  return useMutation({ ...options, ...serviceMutationOptions(api, service, method) });
}
