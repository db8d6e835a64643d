import type { AssignmentPolicyBody } from '../contract/directory';

// Policy bodies for tests: one that uses every kind of part a v1.0 policy has, the way the
// admin center's editor would fill it in.

const ACCESS_PACKAGE_ID = '1b3e4d6a-0000-4000-8000-00000000ac01';
const EXTENSION_ID = '219f57b6-0000-4000-8000-00000000e701';
const APPROVER_USER_ID = '5b6e0c1a-0000-4000-a000-0000000a11ce';
const GROUP_ID = 'a6c9f2d1-0000-4000-8000-00000000900b';

/** Every field kind: approval stages with each approver kind, both question kinds, reviews, custom extension stages. */
export function fullPolicyBody(overrides: Partial<AssignmentPolicyBody> = {}): AssignmentPolicyBody {
  return {
    displayName: 'Sales contractors',
    description: 'Contractors of the sales team request access; their manager and a sales lead approve.',
    allowedTargetScope: 'specificDirectoryUsers',
    specificAllowedTargets: [{ '@odata.type': '#microsoft.graph.groupMembers', groupId: GROUP_ID, description: 'Sales contractors' }],
    automaticRequestSettings: null,
    expiration: { type: 'afterDuration', duration: 'P365D', endDateTime: null },
    requestorSettings: {
      enableTargetsToSelfAddAccess: true,
      enableTargetsToSelfUpdateAccess: true,
      enableTargetsToSelfRemoveAccess: true,
      allowCustomAssignmentSchedule: false,
      enableOnBehalfRequestorsToAddAccess: false,
      enableOnBehalfRequestorsToUpdateAccess: false,
      enableOnBehalfRequestorsToRemoveAccess: false,
      onBehalfRequestors: [],
    },
    requestApprovalSettings: {
      isApprovalRequiredForAdd: true,
      isApprovalRequiredForUpdate: true,
      isRequestorJustificationRequired: true,
      stages: [
        {
          durationBeforeAutomaticDenial: 'P2D',
          isApproverJustificationRequired: true,
          isEscalationEnabled: true,
          durationBeforeEscalation: 'PT12H',
          primaryApprovers: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 }],
          fallbackPrimaryApprovers: [{ '@odata.type': '#microsoft.graph.singleUser', userId: APPROVER_USER_ID, description: 'Sales lead' }],
          escalationApprovers: [{ '@odata.type': '#microsoft.graph.groupMembers', groupId: GROUP_ID, description: 'Sales leads' }],
          fallbackEscalationApprovers: [{ '@odata.type': '#microsoft.graph.internalSponsors' }],
        },
        {
          durationBeforeAutomaticDenial: 'P14D',
          isApproverJustificationRequired: false,
          isEscalationEnabled: false,
          durationBeforeEscalation: null,
          primaryApprovers: [
            { '@odata.type': '#microsoft.graph.singleUser', userId: APPROVER_USER_ID, description: 'Sales lead' },
            { '@odata.type': '#microsoft.graph.externalSponsors' },
          ],
          fallbackPrimaryApprovers: [],
          escalationApprovers: [],
          fallbackEscalationApprovers: [],
        },
      ],
    },
    reviewSettings: {
      isEnabled: true,
      expirationBehavior: 'removeAccess',
      isRecommendationEnabled: true,
      isReviewerJustificationRequired: true,
      isSelfReview: false,
      primaryReviewers: [{ '@odata.type': '#microsoft.graph.singleUser', userId: APPROVER_USER_ID, description: 'Sales lead' }],
      fallbackReviewers: [{ '@odata.type': '#microsoft.graph.targetManager', managerLevel: 2 }],
      schedule: {
        startDateTime: '2025-04-01T00:00:00Z',
        expiration: { type: 'afterDuration', duration: 'P14D', endDateTime: null },
        recurrence: { pattern: { type: 'absoluteMonthly', interval: 3 }, range: { type: 'noEnd' } },
      },
    },
    questions: [
      {
        '@odata.type': '#microsoft.graph.accessPackageTextInputQuestion',
        sequence: 1,
        isRequired: true,
        isAnswerEditable: true,
        text: 'Cost centre',
        localizations: [{ languageCode: 'fr-FR', text: 'Centre de coûts' }],
        isSingleLineQuestion: true,
        regexPattern: '^[0-9]{4}$',
      },
      {
        '@odata.type': '#microsoft.graph.accessPackageMultipleChoiceQuestion',
        sequence: 2,
        isRequired: false,
        isAnswerEditable: false,
        text: 'Region',
        localizations: [],
        isMultipleSelectionAllowed: true,
        choices: [
          { actualValue: 'emea', text: 'Europe, Middle East, Africa', localizations: [{ languageCode: 'de-DE', text: 'EMEA' }] },
          { actualValue: 'amer', text: 'Americas', localizations: [] },
        ],
      },
    ],
    customExtensionStageSettings: [
      {
        stage: 'assignmentRequestCreated',
        customExtension: { '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension', id: EXTENSION_ID },
      },
      { stage: 'assignmentRequestGranted', customExtension: { id: EXTENSION_ID } },
    ],
    accessPackage: { id: ACCESS_PACKAGE_ID },
    ...overrides,
  };
}

/**
 * Microsoft's own request body for "Update accessPackageAssignmentPolicy" (PUT
 * /identityGovernance/entitlementManagement/assignmentPolicies/{id}, Graph v1.0 reference,
 * Examples → Request), kept as the text the page shows: no reviewSettings, no questions, no
 * notificationSettings, no custom extension stages. Graph accepts it, so the console must too.
 */
export const GRAPH_DOCS_UPDATE_POLICY_ID = '87e1c7f7-c7f7-87e1-f7c7-e187f7c7e187';
export const GRAPH_DOCS_UPDATE_BODY_TEXT = `{
  "id":"87e1c7f7-c7f7-87e1-f7c7-e187f7c7e187",
  "displayName": "All Users",
  "description": "All users can request for access to the directory.",
  "allowedTargetScope": "allDirectoryUsers",
  "automaticRequestSettings": null,
  "specificAllowedTargets": [],
  "expiration": {
      "type": "noExpiration"
  },
  "requestorSettings": {
      "enableTargetsToSelfAddAccess": true,
      "enableTargetsToSelfUpdateAccess": false,
      "enableTargetsToSelfRemoveAccess": true,
      "allowCustomAssignmentSchedule": false,
      "enableOnBehalfRequestorsToAddAccess": false,
      "enableOnBehalfRequestorsToUpdateAccess": false,
      "enableOnBehalfRequestorsToRemoveAccess": false,
      "onBehalfRequestors": []
  },
  "requestApprovalSettings": {
      "isApprovalRequiredForAdd": true,
      "isApprovalRequiredForUpdate": false,
      "stages": [
          {
              "durationBeforeAutomaticDenial": "P2D",
              "isApproverJustificationRequired": false,
              "isEscalationEnabled": false,
              "durationBeforeEscalation": "PT0S",
              "primaryApprovers": [
                  {
                      "@odata.type": "#microsoft.graph.requestorManager",
                      "managerLevel": 1
                  }
              ],
              "fallbackPrimaryApprovers": [
                  {
                      "@odata.type": "#microsoft.graph.singleUser",
                      "userId": "e6bf4d7d-6824-4dd0-809d-5bf42d4817c2",
                      "description": "user"
                  }
              ],
              "escalationApprovers": [],
              "fallbackEscalationApprovers": []
          }
      ]
  },
  "accessPackage": {
        "id": "49d2c59b-0a81-463d-a8ec-ddad3935d8a0"
  }
}`;

/** The documented body with the ids of another directory (the emulator's): its policy, package and a user it knows. */
export function graphDocsUpdateBody(ids: { policyId: string; accessPackageId: string; userId: string }): Record<string, unknown> {
  const text = GRAPH_DOCS_UPDATE_BODY_TEXT.replace(GRAPH_DOCS_UPDATE_POLICY_ID, ids.policyId)
    .replace('49d2c59b-0a81-463d-a8ec-ddad3935d8a0', ids.accessPackageId)
    .replace('e6bf4d7d-6824-4dd0-809d-5bf42d4817c2', ids.userId);
  return JSON.parse(text) as Record<string, unknown>;
}
