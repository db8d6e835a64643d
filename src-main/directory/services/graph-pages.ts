import type { GraphClient, GraphCollection, GraphRequest } from '../client/graph-client';

/**
 * Every item of a Graph collection, following `@odata.nextLink` until the last page. `limit`
 * bounds what is read, so a huge tenant cannot make one call unbounded.
 */
export async function readAllPages<T>(client: GraphClient, first: GraphRequest, limit = 5000): Promise<T[]> {
  const items: T[] = [];
  let request: GraphRequest | null = first;
  while (request && items.length < limit) {
    const page: GraphCollection<T> = (await client.request<GraphCollection<T>>(request)).body;
    items.push(...(page.value ?? []));
    request = page['@odata.nextLink'] ? { path: page['@odata.nextLink'] } : null;
  }
  return items.slice(0, limit);
}
