import { z } from 'zod';
import { defineService, method } from './define-service';

// People pickers: a policy's single-user approvers and reviewers, the assignment list's
// target filter. Graph is asked by the start of a name or sign-in name.

const directoryUserSchema = z.object({
  id: z.string(),
  displayName: z.string().nullable(),
  userPrincipalName: z.string().nullable(),
});
export type DirectoryUser = z.infer<typeof directoryUserSchema>;

export const directoryPeopleService = defineService({
  name: 'directoryPeople',
  methods: {
    /** Users whose display name or user principal name starts with the text (at most `limit`). */
    searchUsers: method(
      z.object({ text: z.string().trim().max(200), limit: z.number().int().min(1).max(100).default(20) }),
      z.array(directoryUserSchema),
    ),
    /** Users by id, for showing names of ids already in a policy; unknown ids are left out. */
    usersById: method(z.object({ ids: z.array(z.string().min(1).max(200)).max(1000) }), z.array(directoryUserSchema)),
  },
  events: {},
});
