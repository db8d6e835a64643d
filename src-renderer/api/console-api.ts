import { appService } from '../../src-shared/contract/app';
import { createServiceClient } from '../../src-shared/contract/create-client';
import type { ServiceClient } from '../../src-shared/contract/define-service';
import { preferencesService } from '../../src-shared/contract/preferences';
import { relayService } from '../../src-shared/contract/relay';
import { storageService } from '../../src-shared/contract/storage';
import type { ClientTransport } from '../../src-shared/contract/transport';
import { transfersService } from '../../src-shared/contract/transfers';
import { processingService } from '../../src-shared/contract/processing';
import { cdnService } from '../../src-shared/contract/cdn';
import { recordingsService } from '../../src-shared/contract/recordings';
import { relaysService } from '../../src-shared/contract/relays';
import {
  calendarSyncService,
  directoryAssignmentsService,
  directoryPoliciesService,
  directoryRolesService,
} from '../../src-shared/contract/directory';
import { directoryAccountService } from '../../src-shared/contract/directory-accounts';
import { directoryPackagesService } from '../../src-shared/contract/directory-packages';
import { directoryPeopleService } from '../../src-shared/contract/directory-people';
import { graphTrafficService } from '../../src-shared/contract/graph-traffic';

/** Every service of the contract, typed, over whichever transport this window has. */
export interface ConsoleApi {
  app: ServiceClient<typeof appService>;
  relay: ServiceClient<typeof relayService>;
  preferences: ServiceClient<typeof preferencesService>;
  storage: ServiceClient<typeof storageService>;
  transfers: ServiceClient<typeof transfersService>;
  processing: ServiceClient<typeof processingService>;
  cdn: ServiceClient<typeof cdnService>;
  recordings: ServiceClient<typeof recordingsService>;
  relays: ServiceClient<typeof relaysService>;
  calendarSync: ServiceClient<typeof calendarSyncService>;
  directoryPackages: ServiceClient<typeof directoryPackagesService>;
  directoryPolicies: ServiceClient<typeof directoryPoliciesService>;
  directoryAssignments: ServiceClient<typeof directoryAssignmentsService>;
  directoryRoles: ServiceClient<typeof directoryRolesService>;
  directoryPeople: ServiceClient<typeof directoryPeopleService>;
  graphTraffic: ServiceClient<typeof graphTrafficService>;
  directoryAccount: ServiceClient<typeof directoryAccountService>;
}

export function createConsoleApi(transport: ClientTransport): ConsoleApi {
  return {
    app: createServiceClient(appService, transport),
    relay: createServiceClient(relayService, transport),
    preferences: createServiceClient(preferencesService, transport),
    storage: createServiceClient(storageService, transport),
    transfers: createServiceClient(transfersService, transport),
    processing: createServiceClient(processingService, transport),
    cdn: createServiceClient(cdnService, transport),
    recordings: createServiceClient(recordingsService, transport),
    relays: createServiceClient(relaysService, transport),
    calendarSync: createServiceClient(calendarSyncService, transport),
    directoryPackages: createServiceClient(directoryPackagesService, transport),
    directoryPolicies: createServiceClient(directoryPoliciesService, transport),
    directoryAssignments: createServiceClient(directoryAssignmentsService, transport),
    directoryRoles: createServiceClient(directoryRolesService, transport),
    directoryPeople: createServiceClient(directoryPeopleService, transport),
    graphTraffic: createServiceClient(graphTrafficService, transport),
    directoryAccount: createServiceClient(directoryAccountService, transport),
  };
}
