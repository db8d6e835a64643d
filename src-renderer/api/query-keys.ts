/** React Query keys, one place, so invalidation and reads agree. */
export const queryKeys = {
  appInfo: ['app', 'info'] as const,
};
