import { hashKey, QueryClient } from '@tanstack/react-query';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ContractFailure, err, ok, type Result } from '../../src-shared/contract/result';
import type { StreamSummary } from '../../src-shared/contract/relay';
import type { ClientTransport } from '../../src-shared/contract/transport';
import { createConsoleApi } from './console-api';
import { callService, serviceFilter, serviceKey, serviceMutationOptions, serviceQueryOptions } from './service-query';

/** A transport that records each call and answers from a table (`service.method` → result); anything else is not found. */
function answering(answers: Record<string, Result<unknown>>) {
  const calls: Array<{ service: string; method: string; input: unknown }> = [];
  const transport: ClientTransport = {
    call: async (service, method, input) => (
      calls.push({ service, method, input }),
      answers[`${service}.${method}`] ?? err('not_found', `${service}.${method}: no answer`)
    ),
    subscribe: () => () => undefined,
  };
  return { api: createConsoleApi(transport), calls };
}

const listing = { accountId: 'local', bucket: 'media', prefix: 'cams/', limit: 1000 };

describe('service query keys', () => {
  it('are [service, method, input], the input as given', () => {
    expect(serviceKey('storage', 'listObjects', listing)).toEqual(['storage', 'listObjects', listing]);
    expect(serviceKey('relay', 'listStreams')).toEqual(['relay', 'listStreams', undefined]);
  });

  it('name one cache entry whatever the order of the input fields, and a different one for another input', () => {
    const reordered = { limit: 1000, prefix: 'cams/', bucket: 'media', accountId: 'local' };
    expect(hashKey(serviceKey('storage', 'listObjects', reordered))).toBe(hashKey(serviceKey('storage', 'listObjects', listing)));
    expect(hashKey(serviceKey('storage', 'listObjects', { ...listing, prefix: 'cams/2024/' }))).not.toBe(
      hashKey(serviceKey('storage', 'listObjects', listing)),
    );
  });

  it('are what the query options use, so an event written with setQueryData reaches the query that reads it', async () => {
    const { api } = answering({ 'relay.listStreams': ok([]) });
    const queryClient = new QueryClient();
    await queryClient.fetchQuery(serviceQueryOptions(api, 'relay', 'listStreams'));
    const pushed = [{ name: 'cam' }] as StreamSummary[];
    queryClient.setQueryData(serviceKey('relay', 'listStreams'), pushed);
    expect(queryClient.getQueryData(serviceQueryOptions(api, 'relay', 'listStreams').queryKey)).toEqual(pushed);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(1);
  });

  it('are typed from the contract: a method, an input or a field that does not exist does not compile', () => {
    expectTypeOf(serviceKey('storage', 'listBuckets', { accountId: 'a' })).toExtend<
      readonly ['storage', 'listBuckets', { accountId: string }]
    >();
    // @ts-expect-error listBucket is not a method of storage
    serviceKey('storage', 'listBucket', { accountId: 'a' });
    // @ts-expect-error onAccounts is an event, not a method
    serviceKey('storage', 'onAccounts');
    // @ts-expect-error listBuckets takes an account
    serviceKey('storage', 'listBuckets');
    // @ts-expect-error acountId is not a field of its input
    serviceKey('storage', 'listBuckets', { acountId: 'a' });
    // @ts-expect-error nor of any bucket read
    serviceFilter('storage', ['listObjects', 'statObject'], { acountId: 'a' });
    // @ts-expect-error a service outside the contract
    serviceKey('storge', 'listAccounts');
  });
});

describe('service calls', () => {
  it('send the method and input of the contract, and answer the value', async () => {
    const { api, calls } = answering({ 'storage.listBuckets': ok([]) });
    const buckets = await callService(api, 'storage', 'listBuckets', { accountId: 'local' });
    expect(buckets).toEqual([]);
    expect(calls).toEqual([{ service: 'storage', method: 'listBuckets', input: { accountId: 'local' } }]);
    expectTypeOf<Awaited<ReturnType<typeof callService<'app', 'info'>>>>().toHaveProperty('version').toEqualTypeOf<string>();
  });

  it('throw a contract error as a ContractFailure with its code, message and details', async () => {
    const { api } = answering({ 'storage.listObjects': err('invalid_input', 'the prefix is too long', { field: 'prefix' }) });
    const failure = await callService(api, 'storage', 'listObjects', listing).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ContractFailure);
    expect(failure).toMatchObject({ code: 'invalid_input', message: 'the prefix is too long', details: { field: 'prefix' } });
  });

  it('leave a failed query with the error and its code, for the view to show', async () => {
    const { api } = answering({});
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const options = serviceQueryOptions(api, 'storage', 'statObject', { accountId: 'local', bucket: 'media', key: 'gone.mp4' });
    await expect(queryClient.fetchQuery(options)).rejects.toMatchObject({ code: 'not_found', message: 'storage.statObject: no answer' });
    expect(queryClient.getQueryState(options.queryKey)).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('make mutations keyed by service and method that send the input they are given', async () => {
    const { api, calls } = answering({ 'relay.deleteStream': ok(undefined) });
    const options = serviceMutationOptions(api, 'relay', 'deleteStream');
    expect(options.mutationKey).toEqual(['relay', 'deleteStream']);
    await options.mutationFn({ name: 'porch' });
    expect(calls).toEqual([{ service: 'relay', method: 'deleteStream', input: { name: 'porch' } }]);
    // @ts-expect-error deleteStream takes a name
    void options.mutationFn({ stream: 'porch' });
  });
});

describe('service filters', () => {
  const keys = [
    serviceKey('storage', 'listAccounts'),
    serviceKey('storage', 'listBuckets', { accountId: 'local' }),
    serviceKey('storage', 'listBuckets', { accountId: 'kodo' }),
    serviceKey('storage', 'listObjects', listing),
    serviceKey('storage', 'listObjects', { ...listing, bucket: 'logs' }),
    serviceKey('storage', 'statObject', { accountId: 'local', bucket: 'media', key: 'a.mp4' }),
    serviceKey('relay', 'listStreams'),
  ];
  const matching = (filter: ReturnType<typeof serviceFilter>) => {
    const queryClient = new QueryClient();
    for (const key of keys) queryClient.setQueryData(key, []);
    return queryClient
      .getQueryCache()
      .findAll(filter)
      .map((query) => keys.findIndex((key) => hashKey(key) === query.queryHash))
      .sort();
  };

  it.each<{ name: string; filter: ReturnType<typeof serviceFilter>; hits: number[] }>([
    { name: 'a whole service', filter: serviceFilter('storage'), hits: [0, 1, 2, 3, 4, 5] },
    { name: 'one method, every input', filter: serviceFilter('storage', 'listBuckets'), hits: [1, 2] },
    { name: 'one method, one input', filter: serviceFilter('storage', 'listBuckets', { accountId: 'kodo' }), hits: [2] },
    {
      name: 'one method, the inputs holding some fields',
      filter: serviceFilter('storage', 'listObjects', { accountId: 'local', bucket: 'media' }),
      hits: [3],
    },
    { name: 'a method without input', filter: serviceFilter('relay', 'listStreams'), hits: [6] },
    {
      name: 'several methods, the inputs holding some fields',
      filter: serviceFilter('storage', ['listObjects', 'statObject'], { bucket: 'media' }),
      hits: [3, 5],
    },
    { name: 'several methods, every input', filter: serviceFilter('storage', ['listAccounts', 'statObject']), hits: [0, 5] },
  ])('match $name', ({ filter, hits }) => {
    expect(matching(filter)).toEqual(hits);
  });
});
