import type { User } from '@microsoft/microsoft-graph-types';
import type { ServiceImpl } from '@shared/contract/define-service';
import type { DirectoryUser, directoryPeopleService } from '@shared/contract/directory-people';
import type { GraphClient } from '../client/graph-client';
import { callGraph } from './graph-failure';

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
const toUser = (user: User): DirectoryUser => ({
  id: user.id ?? '',
  displayName: user.displayName ?? null,
  userPrincipalName: user.userPrincipalName ?? null,
});

/** Users for the people pickers: by the start of a name, or by id. */
export function createPeopleService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryPeopleService> {
  return {
    searchUsers: ({ text, limit }) =>
      callGraph(async () => {
        const query: Record<string, string> = { $select: 'id,displayName,userPrincipalName', $top: String(limit) };
        if (text !== '') query.$filter = `startswith(displayName,${quote(text)}) or startswith(userPrincipalName,${quote(text)})`;
        const answer = await (await client()).request<{ value: User[] }>({ path: '/users', query });
        return answer.body.value.map(toUser);
      }),
    usersById: ({ ids }) =>
      callGraph(async () => {
        if (ids.length === 0) return [];
        const answer = await (
          await client()
        ).request<{ value: User[] }>({ method: 'POST', path: '/directoryObjects/getByIds', body: { ids, types: ['user'] } });
        return answer.body.value.map(toUser);
      }),
  };
}
