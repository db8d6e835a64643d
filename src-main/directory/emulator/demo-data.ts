import { KIND } from './directory-objects';
import type { EventService } from './event-service';
import type { GraphStore } from './graph-store';
import type { Principals } from './principals';

export interface DemoDeps {
  store: GraphStore;
  events: EventService;
  principals: Principals;
  clock: () => number;
}

/** Ids of the demo directory objects, stable so docs and tests can name them. */
export const DEMO_IDS = {
  catalog: 'beedadfe-01d5-4025-910b-84abb9369997',
  accessPackage: '56ff43fd-6b05-48e2-a7a0-0d8e7ad1f3a4',
  policy: '4540a08f-8ab5-43f6-a923-015275799197',
  assignment: 'c0a7ff0c-7d53-4b2f-9b1e-8a1f8d3c5b21',
  expiredAssignment: '9d1a7c1e-3a4f-4c53-8d2e-4e5f6a7b8c9d',
  administrativeUnit: '4d7ea995-bc0f-45c0-8c3e-132e93bdc2e4',
  scopedRoleMember: 'zTVcj8mS-0iwqO8cSVqu5dNUN-7y6nBKuJv2iOjNjWE',
  /** The "User Administrator" directory role as activated in the demo tenant. */
  role: 'fe930be7-5e62-47db-91af-98c3a49a38b1',
  customExtension: '219f57b6-7983-45a1-be01-2c228b7a0a16',
} as const;

/**
 * A policy's requestor settings where the people in scope add and remove their own access and
 * nobody requests for someone else: the demo policy's, and the bodies the emulator's tests PUT.
 * A fresh object each call, as each policy owns its own.
 */
export function selfServiceRequestorSettings() {
  return {
    enableTargetsToSelfAddAccess: true,
    enableTargetsToSelfUpdateAccess: false,
    enableTargetsToSelfRemoveAccess: true,
    allowCustomAssignmentSchedule: false,
    enableOnBehalfRequestorsToAddAccess: false,
    enableOnBehalfRequestorsToUpdateAccess: false,
    enableOnBehalfRequestorsToRemoveAccess: false,
    onBehalfRequestors: [],
  };
}

const DAY = 86_400_000;
const utc = (ms: number) => ({ dateTime: new Date(ms).toISOString().slice(0, 19), timeZone: 'UTC' });

/**
 * First-run content for the demo tenant: an access package with a policy and two assignments
 * (one delivered, one expired), an administrative unit with a scoped role member, and this
 * week's calendar for the first user, with a recurring stand-up.
 */
export function seedDemoData(deps: DemoDeps): void {
  const { store } = deps;
  const now = deps.clock();
  const iso = new Date(now).toISOString();
  const user = deps.principals.users[0]!;
  const subject = {
    id: user.id,
    displayName: user.displayName,
    email: user.userPrincipalName,
    objectId: user.id,
    principalName: user.userPrincipalName,
    subjectType: 'user',
    onPremisesSecurityIdentifier: null,
  };
  store.transaction(() => {
    store.putObject(KIND.catalog, DEMO_IDS.catalog, null, {
      id: DEMO_IDS.catalog,
      displayName: 'General',
      description: 'Built-in catalog.',
      catalogType: 'userManaged',
      state: 'published',
      isExternallyVisible: true,
      createdDateTime: iso,
      modifiedDateTime: iso,
    });
    store.putObject(KIND.customExtension, DEMO_IDS.customExtension, DEMO_IDS.catalog, {
      '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension',
      id: DEMO_IDS.customExtension,
      displayName: 'Open a service desk ticket',
      description: 'Opens a ticket for the service desk when someone requests the package.',
      createdDateTime: iso,
      lastModifiedDateTime: iso,
      endpointConfiguration: {
        '@odata.type': '#microsoft.graph.logicAppTriggerEndpointConfiguration',
        subscriptionId: '38ab2ccc-3747-4567-b36b-9478f5602f0d',
        resourceGroupName: 'service-desk',
        logicAppWorkflowName: 'open-ticket',
        url: null,
      },
      authenticationConfiguration: { '@odata.type': '#microsoft.graph.azureAdPopTokenAuthentication' },
      clientConfiguration: { maximumRetries: 1, timeoutInMilliseconds: 1000 },
      _catalogId: DEMO_IDS.catalog,
    });
    store.putObject(KIND.accessPackage, DEMO_IDS.accessPackage, DEMO_IDS.catalog, {
      id: DEMO_IDS.accessPackage,
      displayName: 'Marketing campaign resources',
      description: 'Sites, groups and apps for the spring campaign.',
      isHidden: false,
      createdDateTime: iso,
      modifiedDateTime: iso,
      _catalogId: DEMO_IDS.catalog,
    });
    store.putObject(KIND.policy, DEMO_IDS.policy, DEMO_IDS.accessPackage, demoPolicy(iso, user));
    const assignment = (id: string, state: string, status: string, start: number, expired: string | null) => ({
      id,
      state,
      status,
      expiredDateTime: expired,
      schedule: {
        startDateTime: new Date(start).toISOString(),
        recurrence: null,
        expiration: { type: 'afterDuration', duration: 'P365D', endDateTime: null },
      },
      customExtensionCalloutInstances: [],
      _accessPackageId: DEMO_IDS.accessPackage,
      _policyId: DEMO_IDS.policy,
      _catalogId: DEMO_IDS.catalog,
      _target: subject,
    });
    store.putObject(
      KIND.assignment,
      DEMO_IDS.assignment,
      DEMO_IDS.accessPackage,
      assignment(DEMO_IDS.assignment, 'delivered', 'Delivered', now - 30 * DAY, null),
    );
    store.putObject(
      KIND.assignment,
      DEMO_IDS.expiredAssignment,
      DEMO_IDS.accessPackage,
      assignment(DEMO_IDS.expiredAssignment, 'expired', 'Expired', now - 400 * DAY, new Date(now - 35 * DAY).toISOString()),
    );
    store.putObject(KIND.adminUnit, DEMO_IDS.administrativeUnit, null, {
      id: DEMO_IDS.administrativeUnit,
      displayName: 'Seattle District Technical Schools',
      description: 'Seattle district technical schools administration',
      visibility: 'HiddenMembership',
      deletedDateTime: null,
      isMemberManagementRestricted: false,
      membershipType: 'Assigned',
      membershipRule: null,
      membershipRuleProcessingState: null,
    });
    store.putObject(KIND.scopedRoleMember, DEMO_IDS.scopedRoleMember, DEMO_IDS.administrativeUnit, {
      id: DEMO_IDS.scopedRoleMember,
      roleId: DEMO_IDS.role,
      administrativeUnitId: DEMO_IDS.administrativeUnit,
      roleMemberInfo: { id: user.id, displayName: user.displayName, userPrincipalName: user.userPrincipalName },
    });
  });

  seedDemoWeek(deps, user.id, now);
}

/** The package's policy: any member user may ask, and their manager approves. */
function demoPolicy(iso: string, user: { id: string; displayName: string }): Record<string, unknown> {
  return {
    id: DEMO_IDS.policy,
    displayName: 'Employees, with manager approval',
    description: 'Any member user may request; their manager approves within 14 days.',
    allowedTargetScope: 'allMemberUsers',
    specificAllowedTargets: [],
    automaticRequestSettings: null,
    createdDateTime: iso,
    modifiedDateTime: iso,
    expiration: { type: 'afterDuration', duration: 'P365D', endDateTime: null },
    requestorSettings: selfServiceRequestorSettings(),
    requestApprovalSettings: {
      isApprovalRequiredForAdd: true,
      isApprovalRequiredForUpdate: false,
      isRequestorJustificationRequired: true,
      stages: [
        {
          durationBeforeAutomaticDenial: 'P14D',
          isApproverJustificationRequired: false,
          isEscalationEnabled: false,
          durationBeforeEscalation: 'PT0S',
          primaryApprovers: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 }],
          fallbackPrimaryApprovers: [{ '@odata.type': '#microsoft.graph.singleUser', userId: user.id, description: user.displayName }],
          escalationApprovers: [],
          fallbackEscalationApprovers: [],
        },
      ],
    },
    reviewSettings: null,
    notificationSettings: { isAssignmentNotificationDisabled: false },
    questions: [
      {
        '@odata.type': '#microsoft.graph.accessPackageTextInputQuestion',
        id: 'b1a2c3d4-0000-4000-a000-00000000a001',
        sequence: 0,
        isRequired: true,
        isAnswerEditable: true,
        text: 'Which campaign are you working on?',
        localizations: [],
        isSingleLineQuestion: true,
        regexPattern: null,
      },
    ],
    customExtensionStageSettings: [
      {
        stage: 'assignmentRequestCreated',
        customExtension: {
          '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension',
          id: DEMO_IDS.customExtension,
        },
      },
    ],
    _accessPackageId: DEMO_IDS.accessPackage,
    _catalogId: DEMO_IDS.catalog,
  };
}

/** This week's calendar, Monday to Friday (UTC), with a recurring stand-up. */
function seedDemoWeek(deps: DemoDeps, userId: string, now: number): void {
  const today = Math.floor(now / DAY) * DAY;
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY;
  const at = (day: number, hour: number, minute = 0) => monday + day * DAY + (hour * 60 + minute) * 60_000;
  const event = (body: Record<string, unknown>) => deps.events.create(userId, body);
  event({
    subject: 'Team stand-up',
    body: { contentType: 'text', content: 'Ten minutes: yesterday, today, blockers.' },
    start: utc(at(0, 9, 30)),
    end: utc(at(0, 9, 40)),
    location: { displayName: 'Teams' },
    isOnlineMeeting: true,
    recurrence: {
      pattern: {
        type: 'weekly',
        interval: 1,
        daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
        firstDayOfWeek: 'monday',
      },
      range: { type: 'noEnd', startDate: new Date(monday).toISOString().slice(0, 10) },
    },
  });
  event({
    subject: 'Access review: marketing package',
    start: utc(at(1, 14)),
    end: utc(at(1, 15)),
    location: { displayName: 'Room 2.14' },
    categories: ['Governance'],
  });
  event({
    subject: 'Camera rollout check-in',
    body: { contentType: 'html', content: '<p>Relay status and new sites.</p>' },
    start: utc(at(2, 11)),
    end: utc(at(2, 12)),
  });
  event({ subject: 'Lunch with the storage team', start: utc(at(3, 12)), end: utc(at(3, 13)), showAs: 'tentative' });
  event({ subject: 'Release day', start: utc(at(4, 0)), end: utc(at(5, 0)), isAllDay: true, showAs: 'free' });
}
