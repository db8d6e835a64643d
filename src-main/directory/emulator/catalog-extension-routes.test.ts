import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from './demo-data';
import { graphCall, startTestDirectoryEmulator, type TestDirectoryEmulator } from './test-support';

// A catalog's custom workflow extensions over HTTP, as Graph v1.0 lists them (the console's
// policy form picks a stage's extension by name from this list).

const CATALOGS = '/identityGovernance/entitlementManagement/catalogs';

describe('GET /identityGovernance/entitlementManagement/catalogs/{id}/customWorkflowExtensions', () => {
  let t: TestDirectoryEmulator;
  let token: string;
  const call = (path: string, init?: Parameters<typeof graphCall>[3]) => graphCall(t.url, token, path, init);

  beforeAll(async () => {
    t = await startTestDirectoryEmulator({
      demoData: true,
      apps: [{ client_id: 'reader', client_secret: 'r', permissions: ['EntitlementManagement.Read.All'] }],
    });
    token = await t.token();
  });
  afterAll(() => t.close());

  it('lists the catalog’s extensions under the v1.0 name and the older one, with $select and $filter', async () => {
    for (const collection of ['customWorkflowExtensions', 'accessPackageCustomWorkflowExtensions']) {
      const listed = await call(`${CATALOGS}/${DEMO_IDS.catalog}/${collection}?$select=id,displayName,description`);
      expect(listed.status).toBe(200);
      expect(listed.body.value).toEqual([
        // A derived type says which one it is, as Graph does, whatever $select names.
        {
          '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension',
          id: DEMO_IDS.customExtension,
          displayName: 'Open a service desk ticket',
          description: 'Opens a ticket for the service desk when someone requests the package.',
        },
      ]);
      expect(listed.body['@odata.context']).toContain(`catalogs('${DEMO_IDS.catalog}')/${collection}(id,displayName,description)`);
    }
    const filtered = await call(`${CATALOGS}/${DEMO_IDS.catalog}/customWorkflowExtensions?$filter=displayName eq 'Something else'`);
    expect(filtered.body.value).toEqual([]);
    const one = await call(`${CATALOGS}/${DEMO_IDS.catalog}/customWorkflowExtensions/${DEMO_IDS.customExtension}`);
    expect(one.body).toMatchObject({
      '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension',
      id: DEMO_IDS.customExtension,
      clientConfiguration: { maximumRetries: 1 },
    });
    expect(one.body).not.toHaveProperty('_catalogId');
  });

  it('answers 404 for an unknown catalog or extension, 400 for an unknown property and 405 for a write (the console only reads them)', async () => {
    const unknownCatalog = await call(`${CATALOGS}/00000000-0000-4000-a000-000000000000/customWorkflowExtensions`);
    expect(unknownCatalog.status).toBe(404);
    expect((await call(`${CATALOGS}/${DEMO_IDS.catalog}/customWorkflowExtensions/00000000-0000-4000-a000-000000000000`)).status).toBe(404);
    const badSelect = await call(`${CATALOGS}/${DEMO_IDS.catalog}/customWorkflowExtensions?$select=colour`);
    expect(badSelect.status).toBe(400);
    expect(badSelect.body.error.message).toContain("'colour'");
    const write = await call(`${CATALOGS}/${DEMO_IDS.catalog}/customWorkflowExtensions`, { method: 'POST', body: { displayName: 'x' } });
    expect(write.status).toBe(405);
    expect(write.body.error.message).toBe('The POST method is not supported on customWorkflowExtensions.');
  });
});
