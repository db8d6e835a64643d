import { z } from 'zod';
import { assignmentPolicyBodySchema, requestorSettingsSchema, reviewSettingsSchema, subjectSetSchema } from '@shared/contract/directory';
import { GraphError, unknownProperty } from './graph-error';

// The body of PUT/POST .../assignmentPolicies, checked as Graph checks it: an unknown property
// is RequestBodyRead (naming the property and its type), a missing access package is
// ArgumentNullException, any other wrong shape is InvalidModel with the offending path. As in
// Graph's own update example, questions, reviewSettings and automaticRequestSettings may be left
// out; the PUT replaces the whole policy, so they become none.

/**
 * The console's contract schema plus the alternative names the seed has seen on the wire:
 * `accessReviewSettings` for reviewSettings, `accessPackageId` beside accessPackage, and the
 * requestorSettings form with acceptRequests/scopeType/allowedRequestors.
 */
const requestorSettings = requestorSettingsSchema.extend({
  acceptRequests: z.boolean().nullish(),
  scopeType: z.string().nullish(),
  allowedRequestors: z.array(subjectSetSchema).nullish(),
});

const policyBodySchema = assignmentPolicyBodySchema.extend({
  requestorSettings,
  // Graph's own update example sends neither: a PUT replaces the policy, so they become none.
  questions: assignmentPolicyBodySchema.shape.questions.optional(),
  reviewSettings: reviewSettingsSchema.nullish(),
  accessReviewSettings: reviewSettingsSchema.nullish(),
  accessPackageId: z.string().nullish(),
  catalog: z.object({ id: z.string() }).nullish(),
  // Read-only values a client may send back as it read them; ignored.
  createdDateTime: z.string().nullish(),
  modifiedDateTime: z.string().nullish(),
});
export type PolicyBody = z.infer<typeof policyBodySchema>;

/** Graph type names for nested objects, by the property that holds them. */
const TYPE_OF_PROPERTY: Record<string, string> = {
  expiration: 'expirationPattern',
  automaticRequestSettings: 'accessPackageAutomaticRequestSettings',
  requestorSettings: 'accessPackageAssignmentRequestorSettings',
  requestApprovalSettings: 'accessPackageAssignmentApprovalSettings',
  stages: 'accessPackageApprovalStage',
  reviewSettings: 'accessPackageAssignmentReviewSettings',
  accessReviewSettings: 'accessPackageAssignmentReviewSettings',
  schedule: 'entitlementManagementSchedule',
  recurrence: 'patternedRecurrence',
  pattern: 'recurrencePattern',
  range: 'recurrenceRange',
  notificationSettings: 'accessPackageNotificationSettings',
  customExtensionStageSettings: 'customExtensionStageSetting',
  customExtension: 'accessPackageAssignmentRequestWorkflowExtension',
  accessPackage: 'accessPackage',
  catalog: 'accessPackageCatalog',
  localizations: 'accessPackageLocalizedText',
  choices: 'accessPackageAnswerChoice',
};

const POLICY_TYPE = 'microsoft.graph.accessPackageAssignmentPolicy';

/** Finds the first property the schema does not know, anywhere in the body. */
function findUnknown(schema: z.ZodType, value: unknown, typeName: string): { property: string; type: string } | undefined {
  if (value === null || value === undefined) return undefined;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return findUnknown(schema.unwrap() as z.ZodType, value, typeName);
  if (schema instanceof z.ZodArray) {
    if (!Array.isArray(value)) return undefined;
    for (const item of value) {
      const found = findUnknown(schema.element as z.ZodType, item, typeName);
      if (found) return found;
    }
    return undefined;
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    if (typeof value !== 'object') return undefined;
    const key = schema._zod.def.discriminator;
    const wanted = (value as Record<string, unknown>)[key];
    const option = (schema.options as z.ZodObject[]).find((o) => {
      const literal = o.shape[key];
      return literal instanceof z.ZodLiteral && literal.value === wanted;
    });
    return option ? findUnknown(option, value, typeof wanted === 'string' ? wanted.replace(/^#/, '') : typeName) : undefined;
  }
  if (schema instanceof z.ZodObject) {
    if (typeof value !== 'object' || Array.isArray(value)) return undefined;
    const shape = schema.shape as Record<string, z.ZodType>;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key.startsWith('@odata.') && key !== '@odata.type') continue;
      const child = shape[key];
      if (!child) return { property: key, type: typeName };
      const found = findUnknown(child, v, TYPE_OF_PROPERTY[key] ? `microsoft.graph.${TYPE_OF_PROPERTY[key]}` : typeName);
      if (found) return found;
    }
  }
  return undefined;
}

/** Checks a policy body; the result has accessPackage filled (from accessPackageId when needed). */
export function parsePolicyBody(body: Record<string, unknown>): PolicyBody {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!key.startsWith('@odata.')) input[key] = value;
  const unknown = findUnknown(policyBodySchema, input, POLICY_TYPE);
  if (unknown) throw unknownProperty(unknown.property, unknown.type);
  if (input.accessPackage === undefined || input.accessPackage === null) {
    if (typeof input.accessPackageId === 'string' && input.accessPackageId !== '') input.accessPackage = { id: input.accessPackageId };
    else throw new GraphError(400, 'ArgumentNullException', 'Value cannot be null. Parameter name: accessPackage');
  }
  const parsed = policyBodySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const target = issue.path.map(String).join('.') || '(body)';
    const reason = issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'is required' : issue.message;
    throw new GraphError(400, 'InvalidModel', `The model is invalid. ${target}: ${reason}`);
  }
  const stages = new Set<string>();
  for (const setting of parsed.data.customExtensionStageSettings ?? []) {
    if (stages.has(setting.stage))
      throw new GraphError(
        400,
        'InvalidModel',
        `The model is invalid. customExtensionStageSettings: stage ${setting.stage} is given twice`,
      );
    stages.add(setting.stage);
  }
  return parsed.data;
}
