/** React Query keys, `[service, method, args]`, one place, so invalidation and reads agree. */
export const queryKeys = {
  appInfo: ['app', 'info'] as const,
  streams: ['relay', 'listStreams'] as const,
  relayEndpoints: ['relay', 'endpoints'] as const,
  configFile: ['relay', 'readConfig'] as const,
  configSchema: ['relay', 'configSchema'] as const,
  preferences: ['preferences', 'get'] as const,
};
