import type { AccessPackage as GraphAccessPackage, AccessPackageCatalog } from '@microsoft/microsoft-graph-types';
import type { ServiceImpl } from '@shared/contract/define-service';
import type { AccessPackage, Catalog, CustomWorkflowExtension, directoryPackagesService } from '@shared/contract/directory-packages';
import type { GraphClient } from '../client/graph-client';
import { readAllPages } from './graph-pages';
import { callGraph } from './graph-failure';

const EM = '/identityGovernance/entitlementManagement';

/** What the policy table shows of each policy; the editor reads the whole policy when opened. */
const POLICY_SUMMARY = 'id,displayName,description,allowedTargetScope,expiration,requestApprovalSettings,modifiedDateTime';

/** Catalogs, and access packages with their catalog and policies, in one listing each. */
export function createPackagesService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryPackagesService> {
  return {
    catalogs: () =>
      callGraph(async () => (await readAllPages<AccessPackageCatalog>(await client(), { path: `${EM}/catalogs` })) as Catalog[]),
    packages: () =>
      callGraph(
        async () =>
          (await readAllPages<GraphAccessPackage>(await client(), {
            path: `${EM}/accessPackages`,
            query: { $expand: `catalog($select=id,displayName),assignmentPolicies($select=${POLICY_SUMMARY})` },
          })) as AccessPackage[],
      ),
    customExtensions: ({ catalogId }) =>
      callGraph(
        async () =>
          (await readAllPages<CustomWorkflowExtension>(await client(), {
            path: `${EM}/catalogs/${encodeURIComponent(catalogId)}/customWorkflowExtensions`,
            query: { $select: 'id,displayName,description' },
          })) as CustomWorkflowExtension[],
      ),
  };
}
