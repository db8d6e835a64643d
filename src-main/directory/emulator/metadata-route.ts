import type { ServerResponse } from 'node:http';
import type { RequestIds } from './graph-http';

// What `@odata.context` points at. Graph serves its CSDL to anyone (code generators and OData
// tools read it without signing in); the emulator answers the same way with the part of the
// schema it serves: its entity sets and singletons, over open entity types keyed by `id`.
const ENTITY_TYPES = [
  'user',
  'directoryRole',
  'directoryObject',
  'administrativeUnit',
  'scopedRoleMembership',
  'unifiedRoleDefinition',
  'event',
  'calendar',
  'identityGovernance',
  'entitlementManagement',
  'accessPackage',
  'accessPackageAssignmentPolicy',
  'accessPackageAssignment',
  'accessPackageAssignmentRequest',
  'accessPackageCatalog',
  'rbacApplication',
  'directory',
];

const ENTITY_SETS: [name: string, type: string][] = [
  ['users', 'user'],
  ['directoryRoles', 'directoryRole'],
  ['directoryObjects', 'directoryObject'],
];

const SINGLETONS: [name: string, type: string][] = [
  ['me', 'user'],
  ['directory', 'directory'],
  ['identityGovernance', 'identityGovernance'],
  ['roleManagement', 'rbacApplication'],
];

const METADATA_XML = [
  '<?xml version="1.0" encoding="utf-8"?>',
  '<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">',
  '<edmx:DataServices>',
  '<Schema Namespace="microsoft.graph" Alias="graph" xmlns="http://docs.oasis-open.org/odata/ns/edm">',
  '<EntityType Name="entity" Abstract="true" OpenType="true"><Key><PropertyRef Name="id"/></Key><Property Name="id" Type="Edm.String" Nullable="false"/></EntityType>',
  ...ENTITY_TYPES.map((name) => `<EntityType Name="${name}" BaseType="graph.entity" OpenType="true"/>`),
  '<EntityContainer Name="GraphService">',
  ...ENTITY_SETS.map(([name, type]) => `<EntitySet Name="${name}" EntityType="microsoft.graph.${type}"/>`),
  ...SINGLETONS.map(([name, type]) => `<Singleton Name="${name}" Type="microsoft.graph.${type}"/>`),
  '</EntityContainer>',
  '</Schema>',
  '</edmx:DataServices>',
  '</edmx:Edmx>',
  '',
].join('\n');

/** `GET /v1.0/$metadata`: the CSDL document, without a token as on Graph. */
export function sendMetadata(res: ServerResponse, ids: RequestIds, head: boolean): void {
  res.writeHead(200, {
    'Content-Type': 'application/xml;charset=utf-8',
    'Content-Length': Buffer.byteLength(METADATA_XML),
    'OData-Version': '4.0',
    'request-id': ids.requestId,
    'client-request-id': ids.clientRequestId,
  });
  res.end(head ? undefined : METADATA_XML);
}
