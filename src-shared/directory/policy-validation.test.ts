import { describe, expect, it } from 'vitest';
import { isoDurationMs } from './iso-duration';
import { fullPolicyBody, GRAPH_DOCS_UPDATE_BODY_TEXT, GRAPH_DOCS_UPDATE_POLICY_ID } from './policy-fixtures';
import { formatPath, validatePolicyBody } from './policy-validation';

type Body = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the edits poke at arbitrary JSON paths
type Json = any;
const clone = (value: unknown): Body => JSON.parse(JSON.stringify(value)) as Body;
/** The body with one change made in place. */
function edited(edit: (body: Body & { [key: string]: Json }) => void): Body {
  const body = clone(fullPolicyBody());
  edit(body);
  return body;
}
const problemsOf = (body: unknown) => validatePolicyBody(body).problems.map(({ path, code }) => `${path} ${code}`);

describe('policy validation', () => {
  it('accepts a body with every field kind and hands back what goes on the wire', () => {
    const result = validatePolicyBody(fullPolicyBody());
    expect(result.problems).toEqual([]);
    expect(result.body?.requestApprovalSettings?.stages).toHaveLength(2);
    expect(validatePolicyBody(fullPolicyBody({ customExtensionStageSettings: [] })).problems).toEqual([]);
  });

  it('drops the annotations and read-only parts of a policy read from Graph', () => {
    const fetched = {
      '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#x',
      id: 'p1',
      createdDateTime: '2025-01-01T00:00:00Z',
      modifiedDateTime: '2025-01-02T00:00:00Z',
      ...fullPolicyBody(),
    };
    const result = validatePolicyBody(fetched);
    expect(result.problems).toEqual([]);
    expect(result.body).not.toHaveProperty('createdDateTime');
    expect(result.body).not.toHaveProperty('@odata.context');
    expect(result.body?.id).toBe('p1');
  });

  it('refuses what is not an object', () => {
    for (const value of [null, 'policy', [], 3]) expect(problemsOf(value)).toEqual([' invalidType']);
  });

  it('accepts Microsoft’s documented update body as it is, and sends it without inventing the parts it leaves out', () => {
    const documented: unknown = JSON.parse(GRAPH_DOCS_UPDATE_BODY_TEXT);
    const result = validatePolicyBody(documented);
    expect(result.problems).toEqual([]);
    expect(result.body).toEqual(documented);
    for (const left of ['reviewSettings', 'questions', 'notificationSettings', 'customExtensionStageSettings'])
      expect(result.body, left).not.toHaveProperty(left);
    expect(result.body?.id).toBe(GRAPH_DOCS_UPDATE_POLICY_ID);
  });

  it('takes reviewSettings and questions as optional, and null reviewSettings as none', () => {
    expect(problemsOf(edited((b) => delete b.reviewSettings))).toEqual([]);
    expect(problemsOf(edited((b) => (b.reviewSettings = null)))).toEqual([]);
    expect(problemsOf(edited((b) => delete b.questions))).toEqual([]);
    // Optional is not anything goes: given, they are checked as before.
    expect(problemsOf(edited((b) => (b.questions = null)))).toEqual(['questions invalidType']);
    expect(problemsOf(edited((b) => (b.reviewSettings = { isEnabled: true, isSelfReview: true })))).toEqual([
      'reviewSettings.schedule.startDateTime required',
      'reviewSettings.schedule.recurrence required',
    ]);
  });

  it('names every missing required part', () => {
    const required = [
      'displayName',
      'description',
      'allowedTargetScope',
      'specificAllowedTargets',
      'expiration',
      'requestorSettings',
      'requestApprovalSettings',
      'accessPackage',
    ];
    for (const key of required) {
      const body = edited((b) => delete b[key]);
      expect(problemsOf(body), key).toEqual([`${key} required`]);
    }
    expect(validatePolicyBody(edited((b) => delete b.accessPackage)).problems[0]?.message).toBe('accessPackage is required');
    expect(problemsOf(edited((b) => (b.accessPackage = {})))).toEqual(['accessPackage.id required']);
    expect(problemsOf(edited((b) => (b.displayName = '')))).toEqual(['displayName required']);
  });

  it('reports wrong types, values and formats with their paths', () => {
    const body = edited((b) => {
      b.description = 42;
      b.allowedTargetScope = 'everyone';
      b.expiration.duration = '365 days';
      b.reviewSettings.schedule.startDateTime = '2025-04-01 00:00';
      b.requestApprovalSettings.stages[0].isEscalationEnabled = 'yes';
      b.requestApprovalSettings.stages[0].primaryApprovers[0].managerLevel = 3;
    });
    expect(problemsOf(body)).toEqual([
      'description invalidType',
      'allowedTargetScope invalidValue',
      'expiration.duration invalidFormat',
      'requestApprovalSettings.stages[0].isEscalationEnabled invalidType',
      'requestApprovalSettings.stages[0].primaryApprovers[0].managerLevel tooBig',
      'reviewSettings.schedule.startDateTime invalidFormat',
    ]);
    const messages = validatePolicyBody(body).problems.map((p) => p.message);
    expect(messages).toContain('description must be a string, not a number');
    expect(messages).toContain('expiration.duration: expected an ISO 8601 duration such as P14D or PT12H');
  });

  it('refuses an unknown approver or question kind, listing the known ones', () => {
    const body = edited((b) => {
      b.requestApprovalSettings.stages[1].primaryApprovers[0]['@odata.type'] = '#microsoft.graph.teamOwner';
      b.questions[0]['@odata.type'] = '#microsoft.graph.accessPackageDateQuestion';
    });
    const problems = validatePolicyBody(body).problems;
    expect(problems.map((p) => `${p.path} ${p.code}`)).toEqual([
      'requestApprovalSettings.stages[1].primaryApprovers[0].@odata.type unknownKind',
      'questions[0].@odata.type unknownKind',
    ]);
    expect(problems[0]?.message).toContain('"teamOwner" is not a known subject kind');
    expect(problems[0]?.message).toContain('requestorManager');
    expect(problems[1]?.message).toContain('accessPackageMultipleChoiceQuestion');
  });

  it('refuses more than three approval stages', () => {
    const body = edited((b) => b.requestApprovalSettings.stages.push(...(clone(b.requestApprovalSettings).stages as unknown[])));
    expect(validatePolicyBody(body).problems).toEqual([
      {
        path: 'requestApprovalSettings.stages',
        code: 'tooBig',
        message: 'requestApprovalSettings.stages: a policy has at most 3 approval stages',
      },
    ]);
  });

  it('refuses unknown properties at any depth, and points beta names to their v1.0 form', () => {
    const body = edited((b) => {
      b.accessReviewSettings = null;
      b.accessPackageId = 'x';
      b.requestorSettings.acceptRequests = true;
      b.requestApprovalSettings.stages[0].approvalStageTimeOutInDays = 14;
      b.questions[1].choices[0].colour = 'red';
    });
    const problems = validatePolicyBody(body).problems;
    expect(problems.map((p) => `${p.path} ${p.code}`).sort()).toEqual([
      'accessPackageId unknownProperty',
      'accessReviewSettings unknownProperty',
      'questions[1].choices[0].colour unknownProperty',
      'requestApprovalSettings.stages[0].approvalStageTimeOutInDays unknownProperty',
      'requestorSettings.acceptRequests unknownProperty',
    ]);
    const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    expect(byPath.accessReviewSettings).toContain('v1.0 names it reviewSettings');
    expect(byPath.accessPackageId).toContain('accessPackage: {"id": "..."}');
    expect(byPath['requestorSettings.acceptRequests']).toContain('enableTargetsToSelfAddAccess');
    // An expanded custom extension is a reference: its other properties are not a problem.
    const expanded = edited((b) => {
      b.customExtensionStageSettings[0].customExtension.displayName = 'Notify HR';
      b.accessPackage.displayName = 'Sales';
    });
    const checked = validatePolicyBody(expanded);
    expect(checked.problems).toEqual([]);
    expect(checked.body?.accessPackage).toEqual({ id: fullPolicyBody().accessPackage.id });
  });

  it('checks the rules between fields', () => {
    const cases: Array<[string, (b: Body & { [key: string]: Json }) => void, string[]]> = [
      ['specific scope without targets', (b) => (b.specificAllowedTargets = []), ['specificAllowedTargets required']],
      [
        'auto-assignment without a rule',
        (b) => (b.automaticRequestSettings = { requestAccessForAllowedTargets: true }),
        ['automaticRequestSettings autoAssignmentTargets'],
      ],
      ['afterDuration without duration', (b) => (b.expiration = { type: 'afterDuration' }), ['expiration.duration required']],
      [
        'afterDateTime without end',
        (b) => (b.expiration = { type: 'afterDateTime', endDateTime: null }),
        ['expiration.endDateTime required'],
      ],
      ['approval without stages', (b) => (b.requestApprovalSettings.stages = []), ['requestApprovalSettings.stages required']],
      [
        'stage without approvers',
        (b) => (b.requestApprovalSettings.stages[1].primaryApprovers = []),
        ['requestApprovalSettings.stages[1].primaryApprovers required'],
      ],
      [
        'escalation without its parts',
        (b) => Object.assign(b.requestApprovalSettings.stages[0], { durationBeforeEscalation: null, escalationApprovers: [] }),
        [
          'requestApprovalSettings.stages[0].durationBeforeEscalation required',
          'requestApprovalSettings.stages[0].escalationApprovers required',
        ],
      ],
      [
        'escalation after denial',
        (b) => (b.requestApprovalSettings.stages[0].durationBeforeEscalation = 'P3D'),
        ['requestApprovalSettings.stages[0].durationBeforeEscalation escalationAfterDenial'],
      ],
      [
        'reviews without schedule or reviewers',
        (b) => Object.assign(b.reviewSettings, { schedule: null, primaryReviewers: [] }),
        [
          'reviewSettings.schedule.startDateTime required',
          'reviewSettings.schedule.recurrence required',
          'reviewSettings.primaryReviewers required',
        ],
      ],
      ['same question sequence', (b) => (b.questions[1].sequence = 1), ['questions[1].sequence duplicate']],
      ['choice question without choices', (b) => (b.questions[1].choices = []), ['questions[1].choices required']],
      ['same choice twice', (b) => (b.questions[1].choices[1].actualValue = 'emea'), ['questions[1].choices[1].actualValue duplicate']],
      ['pattern that does not compile', (b) => (b.questions[0].regexPattern = '^[0-9{4$('), ['questions[0].regexPattern invalidFormat']],
      [
        'extension attached twice',
        (b) => b.customExtensionStageSettings.push(clone(b.customExtensionStageSettings[0])),
        ['customExtensionStageSettings[2] duplicate'],
      ],
    ];
    for (const [name, edit, expected] of cases) expect(problemsOf(edited(edit)), name).toEqual(expected);

    // A rule-abiding auto-assignment policy passes.
    const auto = edited((b) => {
      b.automaticRequestSettings = {
        requestAccessForAllowedTargets: true,
        removeAccessWhenTargetLeavesAllowedTargets: true,
        gracePeriodBeforeAccessRemoval: 'P7D',
      };
      b.specificAllowedTargets = [
        { '@odata.type': '#microsoft.graph.attributeRuleMembers', membershipRule: '(user.department -eq "Sales")', description: 'Sales' },
      ];
      b.requestApprovalSettings = null;
    });
    expect(problemsOf(auto)).toEqual([]);
    // Reviews may rely on self review instead of named reviewers.
    expect(problemsOf(edited((b) => Object.assign(b.reviewSettings, { isSelfReview: true, primaryReviewers: [] })))).toEqual([]);
  });

  it('refuses durations out of range at their field, in a person’s words rather than Graph’s', () => {
    const at = (body: unknown) => Object.fromEntries(validatePolicyBody(body).problems.map((p) => [p.path, `${p.code}: ${p.message}`]));
    expect(at(edited((b) => (b.expiration.duration = 'P99999D')))).toEqual({
      'expiration.duration': 'tooLong: Access can last at most 3,650 days',
    });
    expect(at(edited((b) => (b.expiration.duration = 'P3651D')))).toEqual({
      'expiration.duration': 'tooLong: Access can last at most 3,650 days',
    });
    expect(at(edited((b) => (b.expiration.duration = 'P3650D')))).toEqual({});
    for (const empty of ['P0D', 'PT0H', null])
      expect(at(edited((b) => (b.expiration.duration = empty))), String(empty)).toEqual({
        'expiration.duration': 'required: Enter how many days access lasts (1 or more)',
      });
    expect(at(edited((b) => (b.requestApprovalSettings.stages[1].durationBeforeAutomaticDenial = 'P30D')))).toEqual({
      'requestApprovalSettings.stages[1].durationBeforeAutomaticDenial': 'tooLong: Approvers can have at most 14 days to decide',
    });
    expect(at(edited((b) => (b.requestApprovalSettings.stages[1].durationBeforeAutomaticDenial = 'P0D')))).toEqual({
      'requestApprovalSettings.stages[1].durationBeforeAutomaticDenial':
        'required: Enter within how many days approvers must decide (1 or more)',
    });
    expect(at(edited((b) => (b.reviewSettings.schedule.expiration.duration = null)))).toEqual({
      'reviewSettings.schedule.expiration.duration': 'required: Enter how many days each review lasts (1 or more)',
    });
  });

  it('says what to do, without property names or ISO durations, in every rule message', () => {
    const messages = [
      (b: Json) => (b.specificAllowedTargets = []),
      (b: Json) => (b.expiration = { type: 'afterDuration' }),
      (b: Json) => (b.expiration = { type: 'afterDateTime', endDateTime: null }),
      (b: Json) => (b.requestApprovalSettings.stages = []),
      (b: Json) => (b.requestApprovalSettings.stages[1].primaryApprovers = []),
      (b: Json) => Object.assign(b.requestApprovalSettings.stages[0], { durationBeforeEscalation: null, escalationApprovers: [] }),
      (b: Json) => (b.requestApprovalSettings.stages[0].durationBeforeEscalation = 'P3D'),
      (b: Json) => Object.assign(b.reviewSettings, { schedule: null, primaryReviewers: [] }),
    ].flatMap((edit) => validatePolicyBody(edited(edit)).problems.map((p) => p.message));
    expect(messages).toEqual([
      'Add at least one who may request: only the ones listed can',
      'Enter how many days access lasts (1 or more)',
      'Choose the day access ends',
      'Approval is required: add at least one approval stage',
      'Approval stage 2 needs at least one approver',
      'Enter after how many days the request goes to the escalation approvers (1 or more)',
      'Approval stage 1 escalates: add at least one escalation approver',
      'Requests are denied after 2 days, so escalation must come sooner than 3 days',
      'Choose the day of the first review',
      'Choose how often reviews repeat',
      'Add reviewers, or let people review their own access',
    ]);
    for (const message of messages) expect(message).not.toMatch(/\bP\d|[a-z][A-Z]/);
  });

  it('formats paths and compares durations', () => {
    expect(formatPath(['a', 0, 'b', 12, 'c'])).toBe('a[0].b[12].c');
    expect(isoDurationMs('PT12H')).toBe(12 * 3_600_000);
    expect(isoDurationMs('P1DT1.5S')).toBe(86_400_000 + 1500);
    expect(isoDurationMs('P2W')).toBe(14 * 86_400_000);
    expect(isoDurationMs('12 hours')).toBeNull();
  });
});
