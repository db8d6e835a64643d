import { describe, expect, it } from 'vitest';
import {
  anyOf,
  expirationText,
  extensionStageText,
  questionText,
  recurrenceText,
  reviewSummary,
  stageText,
  subjectText,
  userIdsIn,
  valueText,
} from './review-summary';

const manager = { '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 };
const ada = { '@odata.type': '#microsoft.graph.singleUser', userId: 'AAAA-1', description: null };
const names = new Map([
  ['aaaa-1', 'Ada Lovelace'],
  ['ext-1', 'Notify HR'],
]);
const review = {
  isEnabled: true,
  expirationBehavior: 'removeAccess',
  isRecommendationEnabled: true,
  isReviewerJustificationRequired: true,
  isSelfReview: false,
  primaryReviewers: [manager],
  fallbackReviewers: [],
  schedule: {
    startDateTime: '2026-12-04T00:00:00Z',
    expiration: { type: 'afterDuration', duration: 'P14D' },
    recurrence: { pattern: { type: 'absoluteMonthly', interval: 3 }, range: { type: 'noEnd' } },
  },
};

describe('the Review tab in words', () => {
  it('says who reviews, how often, and what happens when nobody decides', () => {
    expect(reviewSummary(review)).toBe(
      "Reviewed every quarter by the requestor's manager; if nobody decides, access is removed. The first review starts on 2026-12-04; each review is open for 14 days; reviewers see recommendations and they must give a reason.",
    );
    expect(
      reviewSummary({
        ...review,
        isSelfReview: true,
        expirationBehavior: 'keepAccess',
        isRecommendationEnabled: false,
        isReviewerJustificationRequired: false,
        schedule: { ...review.schedule, startDateTime: null, expiration: null },
      }),
    ).toBe('Reviewed every quarter by each person themselves; if nobody decides, access is kept.');
    expect(
      reviewSummary(
        { ...review, primaryReviewers: [ada], fallbackReviewers: [manager], expirationBehavior: 'acceptAccessRecommendation' },
        names,
      ),
    ).toMatch(
      /^Reviewed every quarter by Ada Lovelace \(or else the requestor's manager\); if nobody decides, the recommendation is applied\./,
    );
    expect(reviewSummary(null)).toBe('Access is not reviewed.');
    expect(reviewSummary({ ...review, isEnabled: false })).toBe('Access reviews are set up but turned off.');
  });

  it.each([
    [{ pattern: { type: 'absoluteMonthly', interval: 1 } }, 'every month'],
    [{ pattern: { type: 'absoluteMonthly', interval: 3 } }, 'every quarter'],
    [{ pattern: { type: 'absoluteMonthly', interval: 4 } }, 'every 4 months'],
    [{ pattern: { type: 'weekly', interval: 2 } }, 'every 2 weeks'],
    [{ pattern: { type: 'absoluteYearly', interval: 1 } }, 'every year'],
    [null, 'once'],
  ])('recurrence %o is %s', (recurrence, text) => {
    expect(recurrenceText(recurrence)).toBe(text);
  });

  it('names who, by name where the directory told it', () => {
    expect(subjectText(ada, names)).toBe('Ada Lovelace');
    expect(subjectText(ada)).toBe('the user AAAA-1');
    expect(subjectText({ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 2 })).toBe(
      "the requestor's second-level manager",
    );
    expect(subjectText({ '@odata.type': '#microsoft.graph.groupMembers', groupId: 'g1', description: 'Sales' })).toBe('members of Sales');
    expect(anyOf(['a', 'b', 'c'])).toBe('a, b or c');
  });

  it('says expiration, stages, questions and extensions as sentences', () => {
    expect(expirationText({ type: 'afterDuration', duration: 'P365D' })).toBe('Ends after 365 days');
    expect(expirationText({ type: 'afterDateTime', endDateTime: '2027-01-31T23:59:59Z' })).toBe('Ends on 2027-01-31');
    expect(expirationText({ type: 'noExpiration' })).toBe('Never ends');
    expect(
      stageText(
        {
          primaryApprovers: [manager],
          fallbackPrimaryApprovers: [ada],
          durationBeforeAutomaticDenial: 'P3D',
          isEscalationEnabled: true,
          durationBeforeEscalation: 'P2D',
          escalationApprovers: [ada],
          isApproverJustificationRequired: true,
        },
        names,
      ),
    ).toBe(
      "Approved by the requestor's manager (or else Ada Lovelace), denied if undecided after 3 days; escalated to Ada Lovelace after 2 days; approvers must give a reason.",
    );
    expect(
      questionText({
        '@odata.type': '#microsoft.graph.accessPackageMultipleChoiceQuestion',
        text: 'Region?',
        isRequired: true,
        isMultipleSelectionAllowed: true,
        choices: [
          { actualValue: 'eu', text: 'Europe' },
          { actualValue: 'apac', text: 'Asia' },
        ],
      }),
    ).toBe('“Region?”, pick any of: Europe, Asia, required');
    expect(extensionStageText({ stage: 'assignmentRequestCreated', customExtension: { id: 'EXT-1' } }, names)).toBe(
      'Request is created: calls Notify HR',
    );
  });

  it('turns each diff value into words, nested or not', () => {
    expect(valueText('reviewSettings', review)).toMatch(
      /^Reviewed every quarter by the requestor's manager; if nobody decides, access is removed\./,
    );
    expect(valueText('reviewSettings.expirationBehavior', 'removeAccess')).toBe('removeAccess');
    expect(valueText('reviewSettings.primaryReviewers', [manager, ada], names)).toBe("The requestor's manager or Ada Lovelace");
    expect(valueText('reviewSettings.primaryReviewers[1]', ada, names)).toBe('Ada Lovelace');
    expect(valueText('expiration.duration', 'P90D')).toBe('90 days');
    expect(valueText('requestorSettings.enableTargetsToSelfAddAccess', true)).toBe('Yes');
    expect(valueText('notificationSettings', { isAssignmentNotificationDisabled: false })).toBe('Assignment notification disabled: No');
    expect(valueText('description', null)).toBe('—');
    expect(valueText('questions', [])).toBe('None');
  });

  it('finds the user ids a value names', () => {
    expect(userIdsIn({ a: [ada, manager], b: { primaryReviewers: [{ ...ada, userId: 'bbbb-2' }] } }).sort()).toEqual(['AAAA-1', 'bbbb-2']);
  });
});
