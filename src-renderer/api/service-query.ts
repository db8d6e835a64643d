import { partialMatchKey, queryOptions, type DataTag, type QueryFilters, type QueryKey } from '@tanstack/react-query';
import { unwrap, type Result } from '../../src-shared/contract/result';
import type { ConsoleApi } from './console-api';

// Server state in the query cache is keyed `[service, method, input]`, typed from the contract:
// a call's answer, the options that read it, the filters that refresh it and the mutations that
// change it are all named by the service and method of the contract, so a method that does not
// exist, or an input it does not take, is a type error, and a refresh cannot miss its reads.

/** A service of the console's contract, by its name on the wire. */
export type ServiceName = keyof ConsoleApi;

type AnyMethod = (input: never) => Promise<Result<unknown>>;

/** The methods of a service (its `onX` events left out). */
export type MethodName<S extends ServiceName> = {
  [K in keyof ConsoleApi[S]]: ConsoleApi[S][K] extends AnyMethod ? K : never;
}[keyof ConsoleApi[S]] &
  string;

/** What a method takes (distributed over a union of methods). */
export type MethodInput<S extends ServiceName, M extends MethodName<S>> = M extends unknown
  ? ConsoleApi[S][M] extends (input: infer I) => unknown
    ? I
    : never
  : never;

/** What a method answers once unwrapped. */
export type MethodOutput<S extends ServiceName, M extends MethodName<S>> = ConsoleApi[S][M] extends (
  input: never,
) => Promise<Result<infer O>>
  ? O
  : never;

/** The input as an argument: left out for a method that takes none. */
export type InputArg<S extends ServiceName, M extends MethodName<S>> =
  undefined extends MethodInput<S, M> ? [input?: MethodInput<S, M>] : [input: MethodInput<S, M>];

/** The key of one call's answer, tagged with its type so `setQueryData` and `getQueryData` are typed too. */
export type ServiceKey<S extends ServiceName, M extends MethodName<S>> = DataTag<
  readonly [service: S, method: M, input: MethodInput<S, M>],
  MethodOutput<S, M>,
  Error
>;

/** `[service, method, input]`: where the answer of one call is kept. */
export function serviceKey<S extends ServiceName, M extends MethodName<S>>(
  service: S,
  method: M,
  ...[input]: InputArg<S, M>
): ServiceKey<S, M> {
  return [service, method, input] as unknown as ServiceKey<S, M>;
}

/** Calls a method and answers its value; an error value of the contract is thrown as a ContractFailure with its code. */
export async function callService<S extends ServiceName, M extends MethodName<S>>(
  api: ConsoleApi,
  service: S,
  method: M,
  ...[input]: InputArg<S, M>
): Promise<MethodOutput<S, M>> {
  const call = api[service][method] as unknown as (input: unknown) => Promise<Result<MethodOutput<S, M>>>;
  return unwrap(await call(input));
}

/** The options of a query that reads one call, for `useQuery`, `useQueries` or `queryClient.fetchQuery`. */
export function serviceQueryOptions<S extends ServiceName, M extends MethodName<S>>(
  api: ConsoleApi,
  service: S,
  method: M,
  ...args: InputArg<S, M>
) {
  return queryOptions({ queryKey: serviceKey(service, method, ...args), queryFn: () => callService(api, service, method, ...args) });
}

/** The options of a mutation that makes one call with the input it is given. */
export function serviceMutationOptions<S extends ServiceName, M extends MethodName<S>>(api: ConsoleApi, service: S, method: M) {
  return {
    mutationKey: [service, method] as const,
    mutationFn: (input: MethodInput<S, M>) => callService(api, service, method, ...([input] as InputArg<S, M>)),
  };
}

/** A key that ends where the filter stops naming things: `[service]`, `[service, method]` or `[service, method, input]`. */
function prefix(service: string, method?: string, input?: unknown): QueryKey {
  if (method === undefined) return [service];
  return input === undefined ? [service, method] : [service, method, input];
}

/**
 * The cached reads of a service, of one or several of its methods, and of the calls whose input
 * holds these fields (TanStack's partial match: `{ accountId }` matches every input with that
 * account), for `invalidateQueries`, `refetchQueries` or `removeQueries`.
 */
export function serviceFilter<S extends ServiceName, M extends MethodName<S>>(
  service: S,
  method?: M | readonly M[],
  input?: Partial<MethodInput<S, M>>,
): QueryFilters {
  if (!Array.isArray(method)) return { queryKey: prefix(service, method as M | undefined, input) };
  const keys = method.map((m) => prefix(service, m, input));
  return { queryKey: [service], predicate: (query) => keys.some((key) => partialMatchKey(query.queryKey, key)) };
}
