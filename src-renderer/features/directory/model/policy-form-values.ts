import type { AssignmentPolicy, AssignmentPolicyBody } from '@shared/contract/directory';

// The editor edits the body a PUT sends, never the policy as read: Graph answers with read-only
// and expanded parts (timestamps, the package's name, each extension's details) that a PUT does
// not take. The same reduction gives the Review tab its "what the service has" side, so the diff
// shows only what the person changed.

type Loose = Record<string, unknown>;
const obj = (value: unknown): Loose => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : {});
const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

const REQUESTOR_DEFAULTS = {
  enableTargetsToSelfAddAccess: false,
  enableTargetsToSelfUpdateAccess: false,
  enableTargetsToSelfRemoveAccess: false,
  allowCustomAssignmentSchedule: false,
  enableOnBehalfRequestorsToAddAccess: false,
  enableOnBehalfRequestorsToUpdateAccess: false,
  enableOnBehalfRequestorsToRemoveAccess: false,
};

type ApprovalStage = NonNullable<NonNullable<AssignmentPolicyBody['requestApprovalSettings']>['stages']>[number];

/** A stage as the form adds one: two weeks to decide, no escalation, the approvers given (none by default). */
export function newApprovalStage(primaryApprovers: ApprovalStage['primaryApprovers'] = []): ApprovalStage {
  return {
    durationBeforeAutomaticDenial: 'P14D',
    isApproverJustificationRequired: false,
    isEscalationEnabled: false,
    durationBeforeEscalation: null,
    primaryApprovers,
    fallbackPrimaryApprovers: [],
    escalationApprovers: [],
    fallbackEscalationApprovers: [],
  };
}

/** The editable body of a policy read from Graph. */
export function policyFormValues(policy: AssignmentPolicy): AssignmentPolicyBody {
  const requestor = obj(policy.requestorSettings);
  const approval = policy.requestApprovalSettings ? obj(policy.requestApprovalSettings) : null;
  const expiration = obj(policy.expiration);
  return {
    id: policy.id,
    displayName: policy.displayName ?? '',
    description: policy.description ?? '',
    allowedTargetScope: (policy.allowedTargetScope ?? 'notSpecified') as AssignmentPolicyBody['allowedTargetScope'],
    specificAllowedTargets: list(policy.specificAllowedTargets),
    automaticRequestSettings: (policy.automaticRequestSettings ?? null) as AssignmentPolicyBody['automaticRequestSettings'],
    expiration: {
      type: (expiration.type ?? 'noExpiration') as AssignmentPolicyBody['expiration']['type'],
      duration: (expiration.duration as string | null | undefined) ?? null,
      endDateTime: (expiration.endDateTime as string | null | undefined) ?? null,
    },
    requestorSettings: {
      ...REQUESTOR_DEFAULTS,
      ...requestor,
      onBehalfRequestors: list(requestor.onBehalfRequestors),
    } as AssignmentPolicyBody['requestorSettings'],
    requestApprovalSettings: approval
      ? ({
          isApprovalRequiredForAdd: Boolean(approval.isApprovalRequiredForAdd),
          isApprovalRequiredForUpdate: Boolean(approval.isApprovalRequiredForUpdate),
          isRequestorJustificationRequired: Boolean(approval.isRequestorJustificationRequired),
          stages: list(approval.stages),
        } as AssignmentPolicyBody['requestApprovalSettings'])
      : null,
    // Optional in Graph (its own update example sends none of them): a policy read without them
    // is edited and saved without them, not with parts the person never set.
    ...(policy.reviewSettings !== undefined ? { reviewSettings: policy.reviewSettings as AssignmentPolicyBody['reviewSettings'] } : {}),
    ...(policy.notificationSettings !== undefined
      ? { notificationSettings: policy.notificationSettings as AssignmentPolicyBody['notificationSettings'] }
      : {}),
    ...(Array.isArray(policy.questions) ? { questions: policy.questions as AssignmentPolicyBody['questions'] } : {}),
    customExtensionStageSettings: list<Loose>(policy.customExtensionStageSettings).map((setting) => ({
      ...(typeof setting.id === 'string' ? { id: setting.id } : {}),
      stage: setting.stage as NonNullable<AssignmentPolicyBody['customExtensionStageSettings']>[number]['stage'],
      customExtension: { id: String(obj(setting.customExtension).id ?? '') },
    })),
    accessPackage: { id: String(obj(policy.accessPackage).id ?? '') },
  };
}

/** A new policy for a package, as the admin center starts one: members may request, no approval, a year. */
export function newPolicyValues(accessPackageId: string): AssignmentPolicyBody {
  return {
    displayName: '',
    description: '',
    allowedTargetScope: 'allMemberUsers',
    specificAllowedTargets: [],
    automaticRequestSettings: null,
    expiration: { type: 'afterDuration', duration: 'P365D', endDateTime: null },
    requestorSettings: {
      ...REQUESTOR_DEFAULTS,
      enableTargetsToSelfAddAccess: true,
      enableTargetsToSelfRemoveAccess: true,
      onBehalfRequestors: [],
    },
    requestApprovalSettings: {
      isApprovalRequiredForAdd: false,
      isApprovalRequiredForUpdate: false,
      isRequestorJustificationRequired: false,
      stages: [],
    },
    reviewSettings: null,
    notificationSettings: null,
    questions: [],
    customExtensionStageSettings: [],
    accessPackage: { id: accessPackageId },
  };
}

/** A copy of a policy to save as a new one: no id, its questions without ids, "(copy)" in the name. */
export function duplicatePolicyValues(policy: AssignmentPolicy): AssignmentPolicyBody {
  const { id: _id, ...values } = policyFormValues(policy);
  return {
    ...values,
    displayName: `${values.displayName} (copy)`.slice(0, 256),
    ...(values.questions
      ? { questions: values.questions.map(({ id: _questionId, ...question }) => question) as AssignmentPolicyBody['questions'] }
      : {}),
    customExtensionStageSettings: (values.customExtensionStageSettings ?? []).map(({ id: _settingId, ...setting }) => setting),
  };
}
