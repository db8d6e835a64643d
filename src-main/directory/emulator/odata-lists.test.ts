import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, TEST_OTHER_USER, TEST_USER, type TestDirectoryEmulator } from './test-support';

// OData list options over HTTP, list by list, as Graph's services behind them answer: what the
// directory answers only as an advanced query (ConsistencyLevel: eventual), what it refuses
// with Request_UnsupportedQuery, skip-token paging, and Outlook's options on events.
let t: TestDirectoryEmulator;
let token: string;
const EVENTUAL = { ConsistencyLevel: 'eventual' };
const EM = '/identityGovernance/entitlementManagement';
const call = (path: string, headers: Record<string, string> = {}) => graphCall(t.url, token, path, { headers });
const q = (text: string) => encodeURIComponent(text);
const names = (reply: { body: { value: { displayName?: string; userPrincipalName?: string; subject?: string }[] } }) =>
  reply.body.value.map((v) => v.userPrincipalName ?? v.subject ?? v.displayName);

beforeAll(async () => {
  t = await startTestDirectoryEmulator({
    demoData: true,
    users: [
      { userPrincipalName: 'carol@emulator.test', displayName: 'Carol Danvers', password: 'x' },
      { userPrincipalName: 'adam@emulator.test', displayName: 'Adam Warlock', password: 'x' },
    ],
  });
  token = await t.token();
  for (const [day, subject] of [
    [3, 'Planning'],
    [1, 'Retro'],
    [2, 'Standup'],
  ] as const) {
    const made = await graphCall(t.url, token, `/users/${TEST_USER.id}/events`, {
      method: 'POST',
      body: {
        subject,
        start: { dateTime: `2033-01-0${day}T09:00:00`, timeZone: 'UTC' },
        end: { dateTime: `2033-01-0${day}T10:00:00`, timeZone: 'UTC' },
      },
    });
    expect(made.status).toBe(201);
  }
});
afterAll(() => t.close());

describe('users', () => {
  it('filters, sorts and pages with skip tokens until the last page', async () => {
    const sorted = await call('/users?$orderby=displayName desc&$select=displayName,userPrincipalName');
    expect(names(sorted)).toEqual([
      'carol@emulator.test',
      TEST_OTHER_USER.userPrincipalName,
      TEST_USER.userPrincipalName,
      'adam@emulator.test',
    ]);
    const started = await call(`/users?$filter=${q("startswith(displayName,'a') or userPrincipalName eq 'carol@emulator.test'")}`);
    expect(names(started).sort()).toEqual(['adam@emulator.test', TEST_USER.userPrincipalName, 'carol@emulator.test'].sort());
    const listed = await call(`/users?$filter=${q(`id in ('${TEST_USER.id}', '${TEST_OTHER_USER.id}')`)}`);
    expect(listed.body.value).toHaveLength(2);

    const seen: string[] = [];
    let reply = await call('/users?$top=1&$orderby=userPrincipalName');
    for (;;) {
      expect(reply.status).toBe(200);
      seen.push(...(names(reply) as string[]));
      const next = reply.body['@odata.nextLink'] as string | undefined;
      if (!next) break;
      expect(next).toMatch(/[?&]\$skiptoken=/);
      expect(next).toContain('$top=1');
      reply = await call(next);
    }
    expect(seen).toEqual(['adam@emulator.test', TEST_USER.userPrincipalName, TEST_OTHER_USER.userPrincipalName, 'carol@emulator.test']);
  });

  it('counts and searches only as advanced queries; sorting a filtered list needs one too', async () => {
    expect((await call('/users?$count=true')).body['@odata.count']).toBeUndefined();
    expect((await call('/users?$count=true', EVENTUAL)).body['@odata.count']).toBe(4);

    const search = `/users?$search=${q('"displayName:war"')}`;
    const refused = await call(search);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'Request_UnsupportedQuery',
      message:
        "Request with $search query parameter only works through MSGraph with a special request header: 'ConsistencyLevel: eventual'",
    });
    expect(names(await call(search, EVENTUAL))).toEqual(['adam@emulator.test']);

    const sortFiltered = `/users?$filter=${q("startswith(displayName,'a')")}&$orderby=displayName`;
    expect((await call(sortFiltered)).body.error).toMatchObject({
      code: 'Request_UnsupportedQuery',
      message: 'Sorting not supported for current query.',
    });
    expect(names(await call(`${sortFiltered}&$count=true`, EVENTUAL))).toEqual(['adam@emulator.test', TEST_USER.userPrincipalName]);

    const notEqual = `/users?$filter=${q("displayName ne 'Adam Warlock'")}`;
    expect((await call(notEqual)).body.error.code).toBe('Request_UnsupportedQuery');
    expect((await call(`${notEqual}&$count=true`, EVENTUAL)).body.value).toHaveLength(3);
  });

  it('/users/$count answers a number as text, with ConsistencyLevel: eventual only', async () => {
    const refused = await call('/users/$count');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'Request_BadRequest', message: '$count is not currently supported.' });
    const response = await fetch(`${t.url}/v1.0/users/$count?$filter=${q("startswith(displayName,'a')")}`, {
      headers: { Authorization: `Bearer ${token}`, ...EVENTUAL },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('2');
  });

  it('refuses what the directory refuses, with its codes', async () => {
    const cases: [string, number, string, RegExp | string][] = [
      ['/users?$skip=1', 400, 'Request_BadRequest', "'$skip' is not supported by the service."],
      ['/users?$top=1000', 400, 'Request_UnsupportedQuery', "Invalid page size specified: '1000'. Must be between 1 and 999 inclusive."],
      [
        `/users?$filter=${q("jobTitle eq 'Engineer'")}`,
        400,
        'Request_UnsupportedQuery',
        "Unsupported or invalid query filter clause specified for property 'jobTitle' of resource 'User'.",
      ],
      ['/users?$orderby=jobTitle', 400, 'Request_UnsupportedQuery', "Sorting by the property 'jobTitle' is not supported."],
      ['/users?$skiptoken=forged', 400, 'Directory_ExpiredPageToken', /page token value has expired/],
      ['/users?$expandall=true', 400, 'BadRequest', "The query parameter '$expandall' is not supported."],
    ];
    for (const [path, status, code, message] of cases) {
      const reply = await call(path);
      expect(reply.status, path).toBe(status);
      expect(reply.body.error.code, path).toBe(code);
      expect(reply.body.error.message, path).toMatch(message);
    }
  });
});

describe('administrative units, roles, role members', () => {
  it('counts and searches units as advanced queries; role members take no $filter', async () => {
    const response = await fetch(`${t.url}/v1.0/directory/administrativeUnits/$count`, {
      headers: { Authorization: `Bearer ${token}`, ...EVENTUAL },
    });
    expect(await response.text()).toBe('1');
    const found = await call(`/directory/administrativeUnits?$search=${q('"displayName:seattle"')}&$count=true`, EVENTUAL);
    expect(found.body['@odata.count']).toBe(1);
    const au = found.body.value[0].id as string;
    const members = await call(`/directory/administrativeUnits/${au}/scopedRoleMembers?$filter=${q("roleId eq 'x'")}`);
    expect(members.status).toBe(400);
    expect(members.body.error.code).toBe('Request_UnsupportedQuery');
    const roles = await call(`/directoryRoles?$filter=${q("displayName eq 'User Administrator'")}`);
    expect(roles.body.value.map((r: { displayName: string }) => r.displayName)).toEqual(['User Administrator']);
    expect((await call('/roleManagement/directory/roleDefinitions?$orderby=displayName')).body.error.code).toBe('BadRequest');
  });
});

describe('entitlement management', () => {
  it('sorts, counts and pages packages; refuses sorting assignments', async () => {
    const catalogs = await call(`${EM}/catalogs?$orderby=displayName desc&$count=true&$top=1`);
    expect(catalogs.body['@odata.count']).toBeGreaterThanOrEqual(1);
    const packages = await call(`${EM}/accessPackages?$filter=${q("startswith(displayName,'marketing')")}&$orderby=createdDateTime`);
    expect(names(packages)).toEqual(['Marketing campaign resources']);
    const refused = await call(`${EM}/assignments?$orderby=state`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('$orderby is not supported on accessPackageAssignment lists.');
  });

  it("reads property names in any case, as Graph does: the List assignments docs' own target/objectid filter", async () => {
    // https://learn.microsoft.com/graph/api/entitlementmanagement-list-assignments writes `target/objectid`.
    const docs = await call(`${EM}/assignments?$filter=${q(`target/objectid eq '${TEST_USER.id}'`)}&$expand=target&$select=ID,State`);
    expect(docs.status).toBe(200);
    expect(docs.body.value.length).toBeGreaterThan(0);
    for (const assignment of docs.body.value as Record<string, unknown>[]) {
      expect(Object.keys(assignment).sort()).toEqual(['id', 'state', 'target']);
      expect(assignment.target).toMatchObject({ objectId: TEST_USER.id });
    }
    const other = await call(`${EM}/assignments?$filter=${q(`Target/ObjectId eq '${TEST_OTHER_USER.id}' AND STATE eq 'delivered'`)}`);
    expect(other).toMatchObject({ status: 200, body: { value: [] } });
    const sorted = await call(`${EM}/accessPackages?$orderby=DISPLAYNAME desc&$expand=Catalog($select=DisplayName)`);
    expect(sorted.status).toBe(200);
    expect(sorted.body.value[0].catalog).toEqual({ displayName: 'General' });
    // A name the type does not have is still refused, in whatever case.
    const unknown = await call(`${EM}/assignments?$filter=${q("target/objectidx eq 'x'")}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      "Could not find a property named 'target/objectidx' on type 'microsoft.graph.accessPackageAssignment'.",
    );
  });
});

describe('events (Outlook)', () => {
  it('filters by start, sorts by start or subject, counts and pages', async () => {
    const base = `/users/${TEST_USER.id}/events`;
    const january = `$filter=${q("start/dateTime ge '2033-01-02T00:00:00' and start/dateTime lt '2033-02-01T00:00:00'")}`;
    expect(names(await call(`${base}?${january}&$orderby=start/dateTime`))).toEqual(['Standup', 'Planning']);
    expect(names(await call(`${base}?$filter=${q("start/dateTime ge '2033-01-01T00:00:00'")}&$orderby=subject desc`))).toEqual([
      'Standup',
      'Retro',
      'Planning',
    ]);
    const first = await call(`${base}?$filter=${q("start/dateTime ge '2033-01-01T00:00:00'")}&$orderby=start/dateTime&$top=2&$count=true`);
    expect(first.body['@odata.count']).toBe(3);
    expect(names(first)).toEqual(['Retro', 'Standup']);
    expect(names(await call(first.body['@odata.nextLink']))).toEqual(['Planning']);
    const view = await call(
      `/users/${TEST_USER.id}/calendarView?startDateTime=2033-01-01T00:00:00Z&endDateTime=2033-01-31T00:00:00Z&$filter=${q("subject eq 'retro'")}`,
    );
    expect(names(view)).toEqual(['Retro']);
    const unknown = await call(`${base}?$filter=${q("colour eq 'red'")}`);
    expect(unknown.body.error.message).toBe("Could not find a property named 'colour' on type 'microsoft.graph.event'.");
    const delta = await call(
      `/users/${TEST_USER.id}/calendarView/delta?startDateTime=2033-01-01T00:00:00Z&endDateTime=2033-01-31T00:00:00Z&$filter=${q("subject eq 'retro'")}`,
    );
    expect(delta.status).toBe(400);
  });
});
