import { z } from 'zod';
import { defineService, method } from './define-service';
import { newScopedRoleMemberSchema } from '../directory/scoped-roles';

// Shapes of the Graph v1.0 directory objects the console edits and reads, and the four
// directory services. Property names are Graph's own, so a body checked here is what goes on
// the wire. Objects read back from Graph are loose: the service adds properties over time.

const GRAPH = '#microsoft.graph.';

/** ISO 8601 duration as Graph writes it: P365D, PT3H, P1DT12H, P2W. */
const isoDuration = z
  .string()
  .regex(
    /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
    'expected an ISO 8601 duration such as P14D or PT12H',
  );
/** Date-time with an offset or Z (Graph timestamps), fractional seconds allowed. */
const dateTimeOffset = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/,
    'expected a date-time with an offset, e.g. 2025-03-01T00:00:00Z',
  );
const guidLike = z.string().min(1, 'an id is required').max(200);
const description = z.string().max(1024).nullish();

// ---- subject sets (approvers, reviewers, allowed targets, on-behalf requestors) ----

const subject = <T extends string, S extends z.ZodRawShape>(kind: T, shape: S) =>
  z.object({ '@odata.type': z.literal(`${GRAPH}${kind}`), ...shape });

export const subjectSetSchema = z.discriminatedUnion('@odata.type', [
  subject('singleUser', { userId: guidLike, description }),
  subject('groupMembers', { groupId: guidLike, description }),
  subject('requestorManager', { managerLevel: z.number().int().min(1).max(2) }),
  subject('targetManager', { managerLevel: z.number().int().min(1).max(4) }),
  subject('internalSponsors', {}),
  subject('externalSponsors', {}),
  subject('targetUserSponsors', {}),
  subject('targetApplicationOwners', {}),
  subject('connectedOrganizationMembers', { connectedOrganizationId: guidLike, description }),
  subject('attributeRuleMembers', { membershipRule: z.string().min(1), description }),
  subject('singleServicePrincipal', { servicePrincipalId: guidLike, description }),
]);
export type SubjectSet = z.infer<typeof subjectSetSchema>;
export const subjectSetKinds = subjectSetSchema.options.map((option) => option.shape['@odata.type'].value.slice(GRAPH.length));

const subjects = z.array(subjectSetSchema).max(25);

// ---- policy parts ----

export const allowedTargetScopeSchema = z.enum([
  'notSpecified',
  'specificDirectoryUsers',
  'specificConnectedOrganizationUsers',
  'specificDirectoryServicePrincipals',
  'allMemberUsers',
  'allDirectoryUsers',
  'allDirectoryServicePrincipals',
  'allConfiguredConnectedOrganizationUsers',
  'allExternalUsers',
  'unknownFutureValue',
]);

const expirationPatternSchema = z.object({
  type: z.enum(['notSpecified', 'noExpiration', 'afterDateTime', 'afterDuration']),
  duration: isoDuration.nullish(),
  endDateTime: dateTimeOffset.nullish(),
});

const automaticRequestSettingsSchema = z.object({
  gracePeriodBeforeAccessRemoval: isoDuration.nullish(),
  removeAccessWhenTargetLeavesAllowedTargets: z.boolean().nullish(),
  requestAccessForAllowedTargets: z.boolean().nullish(),
});

export const requestorSettingsSchema = z.object({
  enableTargetsToSelfAddAccess: z.boolean().nullish(),
  enableTargetsToSelfUpdateAccess: z.boolean().nullish(),
  enableTargetsToSelfRemoveAccess: z.boolean().nullish(),
  allowCustomAssignmentSchedule: z.boolean().nullish(),
  enableOnBehalfRequestorsToAddAccess: z.boolean().nullish(),
  enableOnBehalfRequestorsToUpdateAccess: z.boolean().nullish(),
  enableOnBehalfRequestorsToRemoveAccess: z.boolean().nullish(),
  onBehalfRequestors: subjects.nullish(),
});

const approvalStageSchema = z.object({
  durationBeforeAutomaticDenial: isoDuration.nullish(),
  isApproverJustificationRequired: z.boolean().nullish(),
  isEscalationEnabled: z.boolean().nullish(),
  durationBeforeEscalation: isoDuration.nullish(),
  primaryApprovers: subjects.nullish(),
  fallbackPrimaryApprovers: subjects.nullish(),
  escalationApprovers: subjects.nullish(),
  fallbackEscalationApprovers: subjects.nullish(),
});

const approvalSettingsSchema = z.object({
  isApprovalRequiredForAdd: z.boolean().nullish(),
  isApprovalRequiredForUpdate: z.boolean().nullish(),
  isRequestorJustificationRequired: z.boolean().nullish(),
  stages: z.array(approvalStageSchema).max(3, 'a policy has at most 3 approval stages').nullish(),
});

const reviewScheduleSchema = z.object({
  startDateTime: dateTimeOffset.nullish(),
  expiration: expirationPatternSchema.nullish(),
  recurrence: z
    .object({
      pattern: z
        .object({
          type: z.enum(['daily', 'weekly', 'absoluteMonthly', 'relativeMonthly', 'absoluteYearly', 'relativeYearly']),
          interval: z.number().int().min(1).max(99),
        })
        .loose()
        .nullish(),
      range: z
        .object({ type: z.enum(['endDate', 'noEnd', 'numbered']) })
        .loose()
        .nullish(),
    })
    .nullish(),
});

export const reviewSettingsSchema = z.object({
  isEnabled: z.boolean().nullish(),
  expirationBehavior: z.enum(['keepAccess', 'removeAccess', 'acceptAccessRecommendation', 'unknownFutureValue']).nullish(),
  isRecommendationEnabled: z.boolean().nullish(),
  isReviewerJustificationRequired: z.boolean().nullish(),
  isSelfReview: z.boolean().nullish(),
  primaryReviewers: subjects.nullish(),
  fallbackReviewers: subjects.nullish(),
  schedule: reviewScheduleSchema.nullish(),
});

const localizations = z.array(z.object({ languageCode: z.string().min(2).max(16), text: z.string().max(1024) })).nullish();

const questionBase = {
  id: z.string().nullish(),
  sequence: z.number().int().min(0).nullish(),
  isRequired: z.boolean().nullish(),
  isAnswerEditable: z.boolean().nullish(),
  text: z.string().min(1, 'a question needs text').max(1024),
  localizations,
};

export const questionSchema = z.discriminatedUnion('@odata.type', [
  z.object({
    '@odata.type': z.literal(`${GRAPH}accessPackageTextInputQuestion`),
    ...questionBase,
    isSingleLineQuestion: z.boolean().nullish(),
    regexPattern: z.string().max(1024).nullish(),
  }),
  z.object({
    '@odata.type': z.literal(`${GRAPH}accessPackageMultipleChoiceQuestion`),
    ...questionBase,
    isMultipleSelectionAllowed: z.boolean().nullish(),
    choices: z.array(z.object({ actualValue: z.string().min(1), text: z.string().max(1024).nullish(), localizations })).nullish(),
  }),
]);
export type PolicyQuestion = z.infer<typeof questionSchema>;

export const customExtensionStageSchema = z.enum([
  'assignmentRequestCreated',
  'assignmentRequestApproved',
  'assignmentRequestGranted',
  'assignmentRequestRemoved',
  'assignmentFourteenDaysBeforeExpiration',
  'assignmentOneDayBeforeExpiration',
]);

const customExtensionStageSettingSchema = z.object({
  id: z.string().nullish(),
  stage: customExtensionStageSchema,
  customExtension: z.object({
    '@odata.type': z.literal(`${GRAPH}accessPackageAssignmentRequestWorkflowExtension`).optional(),
    id: guidLike,
  }),
});

// ---- the policy ----

/**
 * The body of PUT .../assignmentPolicies/{id}: a full replacement. Unknown properties are
 * refused here as Graph refuses them (RequestBodyRead). What Graph's own update example leaves
 * out is optional here too: reviewSettings, questions, notificationSettings and the custom
 * extension stages (a policy left without them has none).
 */
export const assignmentPolicyBodySchema = z.strictObject({
  id: z.string().optional(),
  displayName: z.string().min(1, 'displayName is required').max(256),
  description: z.string().max(1024),
  allowedTargetScope: allowedTargetScopeSchema,
  specificAllowedTargets: subjects,
  automaticRequestSettings: automaticRequestSettingsSchema.nullish(),
  expiration: expirationPatternSchema,
  requestorSettings: requestorSettingsSchema,
  requestApprovalSettings: approvalSettingsSchema.nullable(),
  reviewSettings: reviewSettingsSchema.nullish(),
  notificationSettings: z.object({ isAssignmentNotificationDisabled: z.boolean() }).nullish(),
  questions: z.array(questionSchema).max(100).optional(),
  customExtensionStageSettings: z.array(customExtensionStageSettingSchema).max(12).optional(),
  accessPackage: z.object({ id: guidLike }),
});
export type AssignmentPolicyBody = z.infer<typeof assignmentPolicyBodySchema>;

/** A policy as Graph returns it (timestamps, catalog, extra properties kept). */
export const assignmentPolicySchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullish(),
    description: z.string().nullish(),
    createdDateTime: z.string().nullish(),
    modifiedDateTime: z.string().nullish(),
    allowedTargetScope: z.string().nullish(),
    specificAllowedTargets: z.array(z.looseObject({ '@odata.type': z.string().optional() })).nullish(),
    automaticRequestSettings: z.looseObject({}).nullish(),
    expiration: z.looseObject({}).nullish(),
    requestorSettings: z.looseObject({}).nullish(),
    requestApprovalSettings: z.looseObject({}).nullish(),
    reviewSettings: z.looseObject({}).nullish(),
    questions: z.array(z.looseObject({})).nullish(),
    customExtensionStageSettings: z.array(z.looseObject({})).nullish(),
    accessPackage: z.looseObject({ id: z.string().optional() }).nullish(),
  })
  .loose();
export type AssignmentPolicy = z.infer<typeof assignmentPolicySchema>;

/** One thing wrong with a policy body: where (dotted path) and why, with a stable code. */
const policyProblemSchema = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
});
export type PolicyProblem = z.infer<typeof policyProblemSchema>;

// ---- assignments and scoped role members ----

const assignmentExpandSchema = z.enum(['accessPackage', 'target', 'assignmentPolicy']);
/** An OData property name (optionally a/b for nested), safe to put in $select. */
const propertyName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*(\/[A-Za-z][A-Za-z0-9_]*)*$/, 'expected a property name');

const assignmentSchema = z
  .object({
    id: z.string(),
    state: z.string().nullish(),
    status: z.string().nullish(),
    expiredDateTime: z.string().nullish(),
    schedule: z.looseObject({}).nullish(),
    accessPackage: z.looseObject({ id: z.string().optional() }).nullish(),
    target: z.looseObject({ id: z.string().optional() }).nullish(),
    assignmentPolicy: z.looseObject({ id: z.string().optional() }).nullish(),
  })
  .loose();
export type Assignment = z.infer<typeof assignmentSchema>;

const scopedRoleMemberSchema = z
  .object({
    id: z.string(),
    roleId: z.string().nullish(),
    administrativeUnitId: z.string().nullish(),
    roleMemberInfo: z
      .object({ id: z.string().nullish(), displayName: z.string().nullish(), userPrincipalName: z.string().nullish() })
      .loose()
      .nullish(),
  })
  .loose();
export type ScopedRoleMember = z.infer<typeof scopedRoleMemberSchema>;

// ---- calendar sync ----

const calendarEventSchema = z.object({
  id: z.string(),
  subject: z.string().nullable(),
  /** UTC instants, ISO 8601 with Z. */
  start: z.string(),
  end: z.string(),
  isAllDay: z.boolean(),
  isCancelled: z.boolean(),
  location: z.string().nullable(),
  lastModifiedDateTime: z.string().nullable(),
  /** The event exactly as Graph last sent it. */
  graph: z.record(z.string(), z.unknown()),
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

/** A full round reads the whole window; an incremental one only what changed since the last (its delta link). */
const roundKindSchema = z.enum(['full', 'incremental']);
export type RoundKind = z.infer<typeof roundKindSchema>;

/** Why a full round ran: the view's first, an expired delta token, a resync asked for, or links from another connection. */
const fullReasonSchema = z.enum(['first', 'expired', 'resync', 'connection']);
export type FullReason = z.infer<typeof fullReasonSchema>;

const roundCountsSchema = z.object({
  pages: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
});

const calendarSyncStatusSchema = z.object({
  state: z.enum(['stopped', 'idle', 'syncing', 'error']),
  /** Who is synchronised (`me` or a user id) and the window of the calendar view. */
  target: z.object({ user: z.string(), start: z.string(), end: z.string() }).nullable(),
  intervalSeconds: z.number().nonnegative().nullable(),
  /** Events asked per delta page (Prefer: odata.maxpagesize). */
  pageSize: z.number().int().positive().nullable(),
  /** When the scheduler runs the next round (null while stopped or syncing). */
  nextRoundAt: z.string().nullable(),
  /** Completed rounds. */
  rounds: z.number().int().nonnegative(),
  /** Full synchronisations started because there was no delta state or it expired (410). */
  fullSyncs: z.number().int().nonnegative(),
  /** Requests answered 429/503/504 and retried after waiting. */
  throttled: z.number().int().nonnegative(),
  lastRound: roundCountsSchema
    .extend({
      kind: roundKindSchema,
      /** Full rounds: the view's first, after an expired delta token (410), or a resync asked for. */
      reason: fullReasonSchema.optional(),
      startedAt: z.string(),
      durationMs: z.number().nonnegative(),
    })
    .nullable(),
  totals: roundCountsSchema,
  /** The round running now, as far as it got (pages and events applied so far). */
  currentRound: roundCountsSchema
    .extend({ kind: roundKindSchema, startedAt: z.string(), received: z.number().int().nonnegative() })
    .nullable(),
  eventsStored: z.number().int().nonnegative(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.object({ at: z.string(), message: z.string(), code: z.string().nullable() }).nullable(),
});
export type CalendarSyncStatus = z.infer<typeof calendarSyncStatusSchema>;

/** One round of the history: what it did, why a full one ran, or why it failed. */
const calendarRoundSchema = roundCountsSchema.extend({
  kind: roundKindSchema,
  /** Full rounds: the view's first, after an expired delta token (410), or a resync asked for. */
  reason: fullReasonSchema.optional(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  received: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type CalendarRound = z.infer<typeof calendarRoundSchema>;

/** Access-package assignment policies: read one, check an edit, save it (PUT, full replacement). */
export const directoryPoliciesService = defineService({
  name: 'directoryPolicies',
  methods: {
    get: method(z.object({ policyId: guidLike }), assignmentPolicySchema),
    /** Checks a body without sending it; `problems` is empty when Graph would accept its shape. */
    validate: method(z.object({ policy: z.unknown() }), z.object({ problems: z.array(policyProblemSchema) })),
    /** Sends the body as a PUT. A body with problems answers `invalid_input` with them in details.problems; Graph's refusals answer with its error in details.graph (code, status, requestId). */
    update: method(z.object({ policyId: guidLike, policy: z.unknown() }), assignmentPolicySchema),
    /** A new policy (POST) for the body's access package; the same checks as update. */
    create: method(z.object({ policy: z.unknown() }), assignmentPolicySchema),
    /** Deletes a policy; Graph refuses while assignments still use it. */
    remove: method(z.object({ policyId: guidLike }), z.object({ removed: z.literal(true) })),
  },
  events: {},
});

export const assignmentStates = ['delivering', 'partiallyDelivered', 'delivered', 'expired', 'deliveryFailed'] as const;

/** What an assignment list may be narrowed to; each becomes a clause of Graph's `$filter`. */
const assignmentFilterSchema = z.object({
  state: z.enum(assignmentStates).optional(),
  accessPackageId: guidLike.optional(),
  policyId: guidLike.optional(),
  /** The object id of the user or service principal who holds the assignment. */
  targetObjectId: guidLike.optional(),
});
export type AssignmentFilter = z.infer<typeof assignmentFilterSchema>;

/** Columns of the assignment list; the navigation ones are expanded, the rest are `$select`ed. */
export const assignmentColumns = ['target', 'accessPackage', 'assignmentPolicy', 'state', 'status', 'schedule', 'expiredDateTime'] as const;
export type AssignmentColumn = (typeof assignmentColumns)[number];

const assignmentPageSchema = z.object({
  items: z.array(assignmentSchema),
  /** All assignments that pass the filter (`@odata.count`), when Graph counted them. */
  total: z.number().int().nonnegative().nullable(),
  /** Hands the next page back to `list`; null on the last page. */
  next: z.string().nullable(),
});

/** Access-package assignments. */
export const directoryAssignmentsService = defineService({
  name: 'directoryAssignments',
  methods: {
    /** One page of assignments; `next` from the previous page continues the same list. */
    list: method(
      z.object({
        filter: assignmentFilterSchema.default({}),
        columns: z
          .array(z.enum(assignmentColumns))
          .min(1)
          .default([...assignmentColumns]),
        pageSize: z.number().int().min(1).max(999).default(50),
        next: z.string().max(8192).optional(),
      }),
      assignmentPageSchema,
    ),
    get: method(
      z.object({ assignmentId: guidLike, expand: z.array(assignmentExpandSchema).optional(), select: z.array(propertyName).optional() }),
      assignmentSchema,
    ),
  },
  events: {},
});

const administrativeUnitSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullish(),
    description: z.string().nullish(),
    visibility: z.string().nullish(),
    membershipType: z.string().nullish(),
  })
  .loose();
export type AdministrativeUnit = z.infer<typeof administrativeUnitSchema>;

/** A scoped role member with what its ids stand for: the role's name and the member's kind. */
const scopedRoleMemberViewSchema = z.object({
  id: z.string(),
  roleId: z.string(),
  /** The directory role's display name; null when the role could not be read. */
  roleName: z.string().nullable(),
  memberId: z.string(),
  memberName: z.string().nullable(),
  memberPrincipalName: z.string().nullable(),
  memberKind: z.enum(['user', 'group', 'servicePrincipal', 'unknown']),
});
export type ScopedRoleMemberView = z.infer<typeof scopedRoleMemberViewSchema>;

/** An activated directory role (GET /directoryRoles); `id` is what a scoped role member's roleId names. */
const directoryRoleSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  roleTemplateId: z.string(),
});
export type DirectoryRoleInfo = z.infer<typeof directoryRoleSchema>;

/** Role members scoped to an administrative unit. */
export const directoryRolesService = defineService({
  name: 'directoryRoles',
  methods: {
    units: method(z.void(), z.array(administrativeUnitSchema)),
    /** A unit's scoped role members, each with the role's name and the member's kind. */
    members: method(z.object({ administrativeUnitId: guidLike }), z.array(scopedRoleMemberViewSchema)),
    /** The tenant's activated directory roles that an administrative unit can scope, by name. */
    scopableRoles: method(z.void(), z.array(directoryRoleSchema)),
    /**
     * Gives a person a role within a unit (POST .../scopedRoleMembers). Graph's refusals answer
     * with details.refusal (`scopedRoleRefusals`) when the console can tell why, and details.graph.
     */
    addMember: method(newScopedRoleMemberSchema.extend({ administrativeUnitId: guidLike }), scopedRoleMemberViewSchema),
    /** Takes a scoped role membership away (DELETE .../scopedRoleMembers/{id}). */
    removeMember: method(z.object({ administrativeUnitId: guidLike, membershipId: guidLike }), z.object({ removed: z.literal(true) })),
    get: method(
      z.object({ administrativeUnitId: guidLike, membershipId: guidLike, select: z.array(propertyName).optional() }),
      scopedRoleMemberSchema,
    ),
  },
  events: {},
});

const calendarSyncStartSchema = z.object({
  /** `me` (signed-in account) or a user id / userPrincipalName; default from the config. */
  user: z.string().min(1).max(320).optional(),
  /** The calendar view window; default from the config (days before and after now). */
  start: dateTimeOffset.optional(),
  end: dateTimeOffset.optional(),
  intervalSeconds: z.number().min(1).max(86_400).optional(),
  /** Events per delta page (Prefer: odata.maxpagesize); a hint Graph may exceed. */
  pageSize: z.number().int().min(1).max(1000).optional(),
});

/** The local copy of a calendar view, kept in step by delta rounds. */
export const calendarSyncService = defineService({
  name: 'calendarSync',
  methods: {
    start: method(calendarSyncStartSchema, calendarSyncStatusSchema),
    stop: method(z.void(), calendarSyncStatusSchema),
    status: method(z.void(), calendarSyncStatusSchema),
    /** Runs one round now (or waits for the running one) and answers with the status after it. */
    syncNow: method(z.void(), calendarSyncStatusSchema),
    /** Drops the delta state and runs a full round now; the copy stays readable meanwhile. */
    resync: method(z.void(), calendarSyncStatusSchema),
    /** The view's rounds, newest first. */
    history: method(z.object({ limit: z.number().int().min(1).max(500).default(100) }), z.array(calendarRoundSchema)),
    eventsInRange: method(z.object({ start: dateTimeOffset, end: dateTimeOffset }), z.array(calendarEventSchema)),
    /** Events of the local copy whose subject holds the text, by start time. */
    searchEvents: method(
      z.object({
        text: z.string().trim().min(1, 'type a part of a subject').max(200),
        limit: z.number().int().min(1).max(500).default(100),
      }),
      z.array(calendarEventSchema),
    ),
  },
  events: {
    /** After every state change and every round. */
    onStatus: calendarSyncStatusSchema,
  },
});
