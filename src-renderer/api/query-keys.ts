/** React Query keys, `[service, method, args]`, one place, so invalidation and reads agree. */
export const queryKeys = {
  appInfo: ['app', 'info'] as const,
  streams: ['relay', 'listStreams'] as const,
  relayEndpoints: ['relay', 'endpoints'] as const,
  configFile: ['relay', 'readConfig'] as const,
  configSchema: ['relay', 'configSchema'] as const,
  preferences: ['preferences', 'get'] as const,
  storageAccounts: ['storage', 'listAccounts'] as const,
  storageBuckets: (accountId: string) => ['storage', 'listBuckets', accountId] as const,
  /** Everything read from one bucket: invalidated together after a change to it. */
  storageBucket: (accountId: string, bucket: string) => ['storage', 'bucket', accountId, bucket] as const,
  storageBatches: ['storage', 'listBatches'] as const,
  transfers: ['transfers', 'list'] as const,
  transferSettings: ['transfers', 'settings'] as const,
  processingJobs: ['processing', 'list'] as const,
  /** Everything read from one account's CDN. */
  cdn: (accountId: string) => ['cdn', accountId] as const,
  calendarStatus: ['calendarSync', 'status'] as const,
  /** Everything read from the local copy and the round history: refreshed after each round. */
  calendarCopy: ['calendarSync', 'copy'] as const,
  /** Catalogs, packages and their policy summaries: refreshed after a policy is saved or deleted. */
  directoryPackages: ['directoryPackages'] as const,
  directoryPolicy: (policyId: string) => ['directoryPolicies', 'get', policyId] as const,
  directoryAssignments: ['directoryAssignments'] as const,
  directoryUnits: ['directoryRoles', 'units'] as const,
  directoryMembers: (unitId: string) => ['directoryRoles', 'members', unitId] as const,
  directoryScopableRoles: ['directoryRoles', 'scopableRoles'] as const,
  directoryPeople: ['directoryPeople'] as const,
  graphTraffic: ['graphTraffic', 'recent'] as const,
  directoryAccount: ['directoryAccount', 'status'] as const,
  directoryConnections: ['directoryAccount', 'connections'] as const,
};
