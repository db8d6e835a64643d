import type { z } from 'zod';
import {
  assignmentPolicyBodySchema,
  subjectSetKinds,
  type AssignmentPolicyBody,
  type PolicyProblem,
  type SubjectSet,
} from '../contract/directory';
import { DURATION_LIMITS, durationProblem, durationWords, type DurationLimit } from './duration-limits';
import { isoDurationMs } from './iso-duration';
import { findUnknownProperties } from './unknown-properties';

// Checks an assignment-policy body before it is sent as a PUT (a full replacement): its shape
// as Graph v1.0 reads it, then the rules that tie its parts together. No network: every
// problem found here is one Graph would answer with a 400, told sooner and more precisely.

export interface PolicyValidation {
  problems: PolicyProblem[];
  /** The body to send (read-only parts of a fetched policy dropped), when there are no problems. */
  body: AssignmentPolicyBody | null;
}

/** Properties of a policy read from Graph that a PUT does not take; dropped so get → edit → update works. */
const READ_ONLY = new Set(['createdDateTime', 'modifiedDateTime']);

/** Properties that point at another object by id. */
const REFERENCES: ReadonlySet<string> = new Set(['accessPackage', 'customExtension']);

/** Names seen in other API versions' bodies, and what v1.0 calls them. */
const OTHER_VERSION_NAMES: Record<string, string> = {
  accessReviewSettings: 'v1.0 names it reviewSettings',
  accessPackageId: 'v1.0 takes the package as accessPackage: {"id": "..."}',
  'requestorSettings.acceptRequests': 'v1.0 uses enableTargetsToSelfAddAccess and the other enable… flags',
  'requestorSettings.scopeType': 'v1.0 sets who may request with allowedTargetScope on the policy',
  'requestorSettings.allowedRequestors': 'v1.0 lists them in specificAllowedTargets on the policy',
};

type Path = ReadonlyArray<PropertyKey>;

/** `requestApprovalSettings.stages[0].primaryApprovers[1].userId` */
export function formatPath(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function valueAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);
const shortKind = (odataType: string) => odataType.replace(/^#microsoft\.graph\./, '');

function problemFromIssue(issue: z.core.$ZodIssue, root: unknown): PolicyProblem[] {
  const path = formatPath(issue.path);
  const value = valueAt(root, issue.path);
  if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value'))
    return [{ path, code: 'required', message: `${path} is required` }];
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const full = formatPath([...issue.path, key]);
        const hint = OTHER_VERSION_NAMES[full];
        return {
          path: full,
          code: 'unknownProperty',
          message: `${full} is not a property of a v1.0 assignment policy${hint ? `: ${hint}` : ''}`,
        };
      });
    case 'invalid_type':
      return [
        {
          path,
          code: 'invalidType',
          message: `${path} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}, not ${typeName(value)}`,
        },
      ];
    case 'invalid_union': {
      const kind = (issue as { discriminator?: string }).discriminator;
      if (kind === '@odata.type') {
        const where = formatPath(issue.path.slice(0, -1));
        const isQuestion = issue.path.includes('questions');
        const expected = isQuestion ? 'accessPackageTextInputQuestion, accessPackageMultipleChoiceQuestion' : subjectSetKinds.join(', ');
        const given = typeof value === 'string' ? `"${shortKind(value)}"` : 'missing';
        return [
          {
            path,
            code: 'unknownKind',
            message: `${where}: @odata.type ${given} is not a known ${isQuestion ? 'question' : 'subject'} kind; expected #microsoft.graph. followed by one of ${expected}`,
          },
        ];
      }
      return [{ path, code: 'invalidValue', message: `${path}: ${issue.message}` }];
    }
    case 'invalid_value':
      return [{ path, code: 'invalidValue', message: `${path} must be one of ${issue.values.map((v) => String(v)).join(', ')}` }];
    case 'invalid_format':
      return [{ path, code: 'invalidFormat', message: `${path}: ${issue.message}` }];
    case 'too_big':
      return [
        {
          path,
          code: 'tooBig',
          message: issue.message.startsWith('Too big')
            ? `${path} is too ${issue.origin === 'array' ? 'long: at most' : 'big: at most'} ${String(issue.maximum)}`
            : `${path}: ${issue.message}`,
        },
      ];
    case 'too_small':
      if (issue.origin === 'string' && value === '') return [{ path, code: 'required', message: `${path} must not be empty` }];
      return [
        {
          path,
          code: 'tooSmall',
          message: issue.message.startsWith('Too small')
            ? `${path} is too small: at least ${String(issue.minimum)}`
            : `${path}: ${issue.message}`,
        },
      ];
    default:
      return [{ path, code: 'invalid', message: `${path}: ${issue.message}` }];
  }
}

const problem = (path: Path, code: string, message: string): PolicyProblem => ({ path: formatPath(path), code, message });

/** The rules between fields, checked once the shape is right. */
function ruleProblems(body: AssignmentPolicyBody): PolicyProblem[] {
  const found: PolicyProblem[] = [];
  const add = (path: Path, code: string, message: string) => found.push(problem(path, code, message));
  // The messages below are shown under the field in the editor: they say what to do, in the
  // admin center's words, not which property Graph would miss.
  const checkDuration = (path: Path, limit: DurationLimit, iso: string | null | undefined) => {
    const wrong = durationProblem(limit, iso);
    if (wrong) add(path, wrong.code, wrong.message);
  };

  if (body.allowedTargetScope.startsWith('specific') && body.specificAllowedTargets.length === 0) {
    add(['specificAllowedTargets'], 'required', 'Add at least one who may request: only the ones listed can');
  }

  if (body.automaticRequestSettings) {
    // An auto-assignment policy assigns everyone a membership rule matches, and only that.
    const hasRule = body.specificAllowedTargets.some(
      (target: SubjectSet) => target['@odata.type'] === '#microsoft.graph.attributeRuleMembers',
    );
    if (body.allowedTargetScope !== 'specificDirectoryUsers' || !hasRule) {
      add(
        ['automaticRequestSettings'],
        'autoAssignmentTargets',
        'an auto-assignment policy (automaticRequestSettings set) needs allowedTargetScope specificDirectoryUsers and an attributeRuleMembers entry in specificAllowedTargets',
      );
    }
  }

  const { expiration } = body;
  if (expiration.type === 'afterDuration') checkDuration(['expiration', 'duration'], DURATION_LIMITS.access, expiration.duration);
  if (expiration.type === 'afterDateTime' && !expiration.endDateTime)
    add(['expiration', 'endDateTime'], 'required', 'Choose the day access ends');

  const approval = body.requestApprovalSettings;
  if (approval) {
    const stages = approval.stages ?? [];
    if ((approval.isApprovalRequiredForAdd || approval.isApprovalRequiredForUpdate) && stages.length === 0) {
      add(['requestApprovalSettings', 'stages'], 'required', 'Approval is required: add at least one approval stage');
    }
    stages.forEach((stage, index) => {
      const at = ['requestApprovalSettings', 'stages', index] as const;
      if (!stage.primaryApprovers?.length)
        add([...at, 'primaryApprovers'], 'required', `Approval stage ${index + 1} needs at least one approver`);
      // Graph takes a stage without a deadline; one that is given must be a real one.
      if (stage.durationBeforeAutomaticDenial !== undefined && stage.durationBeforeAutomaticDenial !== null)
        checkDuration([...at, 'durationBeforeAutomaticDenial'], DURATION_LIMITS.decision, stage.durationBeforeAutomaticDenial);
      if (stage.isEscalationEnabled) {
        checkDuration([...at, 'durationBeforeEscalation'], DURATION_LIMITS.escalation, stage.durationBeforeEscalation);
        if (!stage.escalationApprovers?.length)
          add([...at, 'escalationApprovers'], 'required', `Approval stage ${index + 1} escalates: add at least one escalation approver`);
        const escalateAfter = stage.durationBeforeEscalation ? isoDurationMs(stage.durationBeforeEscalation) : null;
        const denyAfter = stage.durationBeforeAutomaticDenial ? isoDurationMs(stage.durationBeforeAutomaticDenial) : null;
        if (escalateAfter !== null && denyAfter !== null && escalateAfter >= denyAfter) {
          add(
            [...at, 'durationBeforeEscalation'],
            'escalationAfterDenial',
            `Requests are denied after ${durationWords(stage.durationBeforeAutomaticDenial!)}, so escalation must come sooner than ${durationWords(stage.durationBeforeEscalation!)}`,
          );
        }
      }
    });
  }

  const review = body.reviewSettings;
  if (review?.isEnabled) {
    if (!review.schedule?.startDateTime)
      add(['reviewSettings', 'schedule', 'startDateTime'], 'required', 'Choose the day of the first review');
    if (!review.schedule?.recurrence) add(['reviewSettings', 'schedule', 'recurrence'], 'required', 'Choose how often reviews repeat');
    const reviewLasts = review.schedule?.expiration;
    if (reviewLasts?.type === 'afterDuration')
      checkDuration(['reviewSettings', 'schedule', 'expiration', 'duration'], DURATION_LIMITS.review, reviewLasts.duration);
    if (!review.isSelfReview && !review.primaryReviewers?.length)
      add(['reviewSettings', 'primaryReviewers'], 'required', 'Add reviewers, or let people review their own access');
  }

  const sequences = new Map<number, number>();
  (body.questions ?? []).forEach((question, index) => {
    const at = ['questions', index] as const;
    if (question.sequence !== null && question.sequence !== undefined) {
      const first = sequences.get(question.sequence);
      if (first !== undefined)
        add([...at, 'sequence'], 'duplicate', `questions ${first + 1} and ${index + 1} have the same sequence ${question.sequence}`);
      else sequences.set(question.sequence, index);
    }
    if (question['@odata.type'] === '#microsoft.graph.accessPackageMultipleChoiceQuestion') {
      const choices = question.choices ?? [];
      if (choices.length === 0)
        add([...at, 'choices'], 'required', `question ${index + 1} is multiple choice, so it needs at least one choice`);
      const seen = new Set<string>();
      choices.forEach((choice, choiceIndex) => {
        if (seen.has(choice.actualValue))
          add(
            [...at, 'choices', choiceIndex, 'actualValue'],
            'duplicate',
            `question ${index + 1} offers the value "${choice.actualValue}" twice`,
          );
        seen.add(choice.actualValue);
      });
    } else if (question.regexPattern) {
      try {
        new RegExp(question.regexPattern);
      } catch (error) {
        add(
          [...at, 'regexPattern'],
          'invalidFormat',
          `question ${index + 1}: the answer pattern is not a regular expression (${(error as Error).message})`,
        );
      }
    }
  });

  const attached = new Set<string>();
  (body.customExtensionStageSettings ?? []).forEach((setting, index) => {
    const key = `${setting.stage}\u0000${setting.customExtension.id}`;
    if (attached.has(key))
      add(
        ['customExtensionStageSettings', index],
        'duplicate',
        `custom extension ${setting.customExtension.id} is attached to stage ${setting.stage} twice`,
      );
    attached.add(key);
  });

  return found;
}

/** Checks a body as an update would send it; `body` is what goes on the wire when there are no problems. */
export function validatePolicyBody(input: unknown): PolicyValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { problems: [{ path: '', code: 'invalidType', message: `a policy must be a JSON object, not ${typeName(input)}` }], body: null };
  }
  const candidate: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (!key.startsWith('@odata.') && !READ_ONLY.has(key)) candidate[key] = value;

  const problems: PolicyProblem[] = [];
  const parsed = assignmentPolicyBodySchema.safeParse(candidate);
  if (!parsed.success) for (const issue of parsed.error.issues) problems.push(...problemFromIssue(issue, candidate));
  // accessPackage and customExtension are references: Graph needs their id and ignores the rest
  // of an expanded one (the editor sends back what `get` expanded); only the id goes out.
  for (const { path, key } of findUnknownProperties(assignmentPolicyBodySchema, candidate, REFERENCES)) {
    const full = formatPath([...path, key]);
    const hint = OTHER_VERSION_NAMES[formatPath([...path.filter((part) => typeof part === 'string'), key])];
    problems.push({
      path: full,
      code: 'unknownProperty',
      message: `${full} is not a property Graph v1.0 knows here${hint ? `: ${hint}` : ''}`,
    });
  }
  if (!parsed.success || problems.length > 0) return { problems, body: null };

  const rules = ruleProblems(parsed.data);
  return rules.length > 0 ? { problems: rules, body: null } : { problems: [], body: parsed.data };
}
