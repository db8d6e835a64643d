import { durationWords } from '@shared/directory/duration-limits';

// The Review tab in words: what a changed part of a policy does, said as the admin center says
// it ("Reviewed every quarter by the requestor's manager; if nobody decides, access is
// removed"), so nested values read as sentences. The JSON stays one toggle away.

type Loose = Record<string, unknown>;
const obj = (value: unknown): Loose | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : null);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Names for ids (users, custom extensions) where they are known; ids stand in elsewhere. */
export type Names = ReadonlyMap<string, string>;
const NO_NAMES: Names = new Map();

/** "a", "a or b", "a, b or c" */
export function anyOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

const managerOf = (whose: string, level: unknown) =>
  level === 2
    ? `${whose} second-level manager`
    : typeof level === 'number' && level > 2
      ? `${whose} level-${level} manager`
      : `${whose} manager`;

/** One "who" of a policy (a subject set) as words. */
export function subjectText(subject: unknown, names: Names = NO_NAMES): string {
  const s = obj(subject) ?? {};
  const kind = String(s['@odata.type'] ?? '').replace('#microsoft.graph.', '');
  const described = str(s.description);
  switch (kind) {
    case 'singleUser': {
      const id = str(s.userId);
      return (id && names.get(id.toLowerCase())) ?? described ?? (id ? `the user ${id}` : 'a user not chosen yet');
    }
    case 'groupMembers':
      return `members of ${described ?? `the group ${String(s.groupId ?? '')}`}`;
    case 'requestorManager':
      return managerOf("the requestor's", s.managerLevel);
    case 'targetManager':
      return managerOf("the person's", s.managerLevel);
    case 'internalSponsors':
      return 'internal sponsors';
    case 'externalSponsors':
      return 'external sponsors';
    case 'targetUserSponsors':
      return "the person's sponsors";
    case 'targetApplicationOwners':
      return "the application's owners";
    case 'connectedOrganizationMembers':
      return `members of ${described ?? `the connected organization ${String(s.connectedOrganizationId ?? '')}`}`;
    case 'attributeRuleMembers':
      return described ? `users matching “${described}”` : `users matching ${String(s.membershipRule ?? 'a rule')}`;
    case 'singleServicePrincipal':
      return described ?? `the service principal ${String(s.servicePrincipalId ?? '')}`;
    default:
      return kind || 'someone';
  }
}

function subjectsText(subjects: unknown, names: Names = NO_NAMES): string {
  const list = Array.isArray(subjects) ? subjects : [];
  return list.length === 0 ? 'nobody' : anyOf(list.map((s) => subjectText(s, names)));
}

const EVERY_MONTHS: Record<number, string> = { 1: 'every month', 3: 'every quarter', 6: 'every six months', 12: 'every year' };
const UNIT: Record<string, string> = {
  daily: 'day',
  weekly: 'week',
  absoluteMonthly: 'month',
  relativeMonthly: 'month',
  absoluteYearly: 'year',
  relativeYearly: 'year',
};

/** `{pattern: {type: absoluteMonthly, interval: 3}}` → "every quarter" */
export function recurrenceText(recurrence: unknown): string {
  const pattern = obj(obj(recurrence)?.pattern);
  if (!pattern) return 'once';
  const type = String(pattern.type ?? '');
  const interval = typeof pattern.interval === 'number' && pattern.interval > 0 ? pattern.interval : 1;
  if (type.endsWith('Monthly') && EVERY_MONTHS[interval]) return EVERY_MONTHS[interval];
  const unit = UNIT[type] ?? type;
  return interval === 1 ? `every ${unit}` : `every ${interval} ${unit}s`;
}

const AT_THE_END: Record<string, string> = {
  keepAccess: 'access is kept',
  removeAccess: 'access is removed',
  acceptAccessRecommendation: 'the recommendation is applied',
};

/** reviewSettings: who reviews, how often, and what happens when nobody decides. */
export function reviewSummary(review: unknown, names: Names = NO_NAMES): string {
  const r = obj(review);
  if (!r) return 'Access is not reviewed.';
  if (r.isEnabled === false) return 'Access reviews are set up but turned off.';
  const schedule = obj(r.schedule);
  const who = r.isSelfReview ? 'each person themselves' : subjectsText(r.primaryReviewers, names);
  const fallback =
    !r.isSelfReview && Array.isArray(r.fallbackReviewers) && r.fallbackReviewers.length > 0
      ? ` (or else ${subjectsText(r.fallbackReviewers, names)})`
      : '';
  const end = AT_THE_END[String(r.expirationBehavior ?? 'keepAccess')] ?? `${String(r.expirationBehavior)} applies`;
  const first = `Reviewed ${recurrenceText(schedule?.recurrence)} by ${who}${fallback}; if nobody decides, ${end}.`;
  const details: string[] = [];
  const start = str(schedule?.startDateTime);
  if (start) details.push(`The first review starts on ${start.slice(0, 10)}`);
  const lasts = str(obj(schedule?.expiration)?.duration);
  if (lasts) details.push(`${details.length ? 'each' : 'Each'} review is open for ${durationWords(lasts)}`);
  const helps = [
    r.isRecommendationEnabled ? 'reviewers see recommendations' : null,
    r.isReviewerJustificationRequired ? 'they must give a reason' : null,
  ].filter(Boolean);
  if (helps.length) details.push(helps.join(' and '));
  return details.length ? `${first} ${capital(details.join('; '))}.` : first;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** expiration (an assignment's or a review's) as words. */
export function expirationText(expiration: unknown): string {
  const e = obj(expiration);
  switch (e?.type) {
    case 'afterDuration':
      return str(e.duration) ? `Ends after ${durationWords(String(e.duration))}` : 'Ends after a time not set yet';
    case 'afterDateTime':
      return str(e.endDateTime) ? `Ends on ${String(e.endDateTime).slice(0, 10)}` : 'Ends on a day not chosen yet';
    case 'noExpiration':
      return 'Never ends';
    default:
      return 'No end set';
  }
}

/** One approval stage as words. */
export function stageText(stage: unknown, names: Names = NO_NAMES): string {
  const s = obj(stage) ?? {};
  const parts = [`Approved by ${subjectsText(s.primaryApprovers, names)}`];
  if (Array.isArray(s.fallbackPrimaryApprovers) && s.fallbackPrimaryApprovers.length)
    parts[0] += ` (or else ${subjectsText(s.fallbackPrimaryApprovers, names)})`;
  if (str(s.durationBeforeAutomaticDenial))
    parts[0] += `, denied if undecided after ${durationWords(String(s.durationBeforeAutomaticDenial))}`;
  if (s.isEscalationEnabled)
    parts.push(
      `escalated to ${subjectsText(s.escalationApprovers, names)}${str(s.durationBeforeEscalation) ? ` after ${durationWords(String(s.durationBeforeEscalation))}` : ''}`,
    );
  if (s.isApproverJustificationRequired) parts.push('approvers must give a reason');
  return `${parts.join('; ')}.`;
}

/** One requestor question as words. */
export function questionText(question: unknown): string {
  const q = obj(question) ?? {};
  const text = str(q.text) ? `“${String(q.text)}”` : 'A question with no text yet';
  const choices = Array.isArray(q.choices)
    ? q.choices.map((c) => str(obj(c)?.text) ?? String(obj(c)?.actualValue ?? '')).filter(Boolean)
    : null;
  const kind = String(q['@odata.type'] ?? '').endsWith('MultipleChoiceQuestion')
    ? `${q.isMultipleSelectionAllowed ? 'pick any of' : 'pick one of'}: ${choices?.join(', ') || 'no choices yet'}`
    : q.isSingleLineQuestion === false
      ? 'answered in a paragraph'
      : 'answered in a line';
  return `${text}, ${kind}${q.isRequired ? ', required' : ', optional'}`;
}

export const EXTENSION_STAGE_LABELS: Record<string, string> = {
  assignmentRequestCreated: 'Request is created',
  assignmentRequestApproved: 'Request is approved',
  assignmentRequestGranted: 'Assignment is granted',
  assignmentRequestRemoved: 'Assignment is removed',
  assignmentFourteenDaysBeforeExpiration: '14 days before expiry',
  assignmentOneDayBeforeExpiration: 'One day before expiry',
};

/** A custom extension at a stage, by the extension's name where it is known. */
export function extensionStageText(setting: unknown, names: Names = NO_NAMES): string {
  const s = obj(setting) ?? {};
  const id = str(obj(s.customExtension)?.id);
  const which = id ? (names.get(id.toLowerCase()) ?? `the custom extension ${id}`) : 'a custom extension not chosen yet';
  return `${EXTENSION_STAGE_LABELS[String(s.stage)] ?? String(s.stage)}: calls ${which}`;
}

const isSubject = (value: unknown) =>
  typeof obj(value)?.['@odata.type'] === 'string' &&
  !String(obj(value)!['@odata.type']).includes('Question') &&
  !String(obj(value)!['@odata.type']).includes('Extension');
/** `reviewSettings.primaryReviewers` → "Primary reviewers" */
const words = (key: string) =>
  capital(
    key
      .replace(/^(is|enable)(?=[A-Z])/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase(),
  );

/**
 * A value of the Review tab's diff, at its path, as words: the nested parts people know
 * (reviews, expiration, a stage, a question, who) as sentences, anything else as its parts.
 */
export function valueText(path: string, value: unknown, names: Names = NO_NAMES): string {
  if (value === undefined || value === null) return '—';
  if (/(^|\.)reviewSettings$/.test(path)) return reviewSummary(value, names);
  if (/(^|\.)expiration$/.test(path)) return expirationText(value);
  if (/stages\[\d+\]$/.test(path)) return stageText(value, names);
  if (/stages$/.test(path) && Array.isArray(value))
    return value.length ? value.map((stage, i) => `Stage ${i + 1}: ${stageText(stage, names)}`).join(' ') : 'No approval stages';
  if (/^questions\[\d+\]$/.test(path)) return questionText(value);
  if (/^customExtensionStageSettings\[\d+\]$/.test(path)) return extensionStageText(value, names);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'None';
    if (value.every(isSubject)) return capital(subjectsText(value, names));
    return value.map((item, i) => valueText(`${path}[${i}]`, item, names)).join('; ');
  }
  if (isSubject(value)) return capital(subjectText(value, names));
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return /duration/i.test(path) ? durationWords(value) : value;
  if (typeof value !== 'object') return String(value);
  const entries = Object.entries(value as Loose).filter(([key, v]) => !key.startsWith('@odata') && v !== null && v !== undefined);
  if (entries.length === 0) return 'Nothing set';
  return entries.map(([key, v]) => `${words(key)}: ${valueText(`${path}.${key}`, v, names)}`).join('; ');
}

/** Every user id a value names (singleUser subjects), for asking the directory their names once. */
export function userIdsIn(value: unknown, found: Set<string> = new Set()): string[] {
  if (Array.isArray(value)) value.forEach((item) => userIdsIn(item, found));
  else if (obj(value)) {
    const o = obj(value)!;
    if (o['@odata.type'] === '#microsoft.graph.singleUser' && str(o.userId)) found.add(String(o.userId));
    Object.values(o).forEach((item) => userIdsIn(item, found));
  }
  return [...found];
}
