import { badRequest } from './graph-error';
import { canonicalName } from './property-names';

// The part of OData's $filter that Graph's collections answer: comparisons (eq, ne, gt, ge,
// lt, le), `in (...)`, not, startswith/endswith/contains, joined by and/or with parentheses;
// strings, numbers, booleans, null and unquoted dates. What a collection cannot filter on is
// refused the way Graph refuses it, never ignored.

type Literal = string | number | boolean | null;
type Comparison = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
type StringFunction = 'startswith' | 'endswith' | 'contains';
export type FilterNode =
  | { op: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { op: 'not'; inner: FilterNode }
  | { op: Comparison; path: string; value: Literal }
  | { op: 'in'; path: string; values: Literal[] }
  | { op: StringFunction; path: string; value: string };

export interface FilterRules {
  /** The Graph type, for messages: `user`, `accessPackageAssignment`. */
  type: string;
  /** Property paths the collection can be filtered on. */
  paths: readonly string[];
  /** Every property of the type: one that exists but cannot be filtered on is "unsupported" rather than "not found". */
  properties?: readonly string[];
  /** A directory object collection (users, administrative units, roles): refusals are Request_UnsupportedQuery. */
  directory?: boolean;
  /** ConsistencyLevel: eventual was sent (directory advanced queries: ne, not, endswith). */
  advanced?: boolean;
}

const TOKEN =
  /\s*(\(|\)|,|'(?:[^']|'')*'|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?|[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*|-?\d+(?:\.\d+)?)/y;
const COMPARISONS = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const FUNCTIONS = new Set<string>(['startswith', 'endswith', 'contains']);
/** Directory objects answer these only as advanced queries; contains not at all. */
const ADVANCED_ONLY = new Set(['ne', 'not', 'endswith']);

const invalid = (why: string) => badRequest('BadRequest', `Invalid filter clause: ${why}.`);

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) throw invalid(`unexpected text at position ${start + 1}`);
    tokens.push(match[1]!);
  }
  return tokens;
}

function literal(token: string | undefined): Literal {
  if (token === undefined) throw invalid('a value is missing');
  if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
  if (token === 'true' || token === 'false') return token === 'true';
  if (token === 'null') return null;
  if (/^\d{4}-\d{2}-\d{2}T/.test(token)) return token;
  if (/^-?\d/.test(token)) return Number(token);
  throw invalid(`'${token}' is not a value`);
}

/** Parses a $filter against what the collection can be filtered on. */
export function parseFilter(text: string, rules: FilterRules): FilterNode {
  const tokens = tokenize(text);
  let at = 0;
  const next = () => tokens[at++];
  const expect = (wanted: string) => {
    if (tokens[at] !== wanted) throw invalid(`expected '${wanted}'`);
    at++;
  };
  const unsupported = (what: string, property: string) => {
    if (!rules.directory) return invalid(`the ${what} is not supported on '${property}'`);
    return badRequest(
      'Request_UnsupportedQuery',
      `Unsupported or invalid query filter clause specified for property '${property}' of resource '${rules.type[0]!.toUpperCase()}${rules.type.slice(1)}'.`,
    );
  };
  const operatorAllowed = (operator: string) => {
    if (!rules.directory) return;
    if (operator === 'contains') throw badRequest('Request_UnsupportedQuery', "Operator 'contains' is not supported.");
    if (ADVANCED_ONLY.has(operator) && !rules.advanced)
      throw badRequest(
        'Request_UnsupportedQuery',
        `Operator '${operator}' is not supported because the required parameters might be missing. Try adding $count with a value of true and ConsistencyLevel header with a value of eventual.`,
      );
  };
  const path = (token: string | undefined): string => {
    if (token === undefined || !/^[A-Za-z_]/.test(token)) throw invalid('a property name is missing');
    const known = canonicalName(token, rules.paths);
    if (known) return known;
    const head = token.split('/')[0]!;
    if (rules.properties && canonicalName(head, rules.properties)) throw unsupported('filter', token);
    throw badRequest('BadRequest', `Could not find a property named '${token}' on type 'microsoft.graph.${rules.type}'.`);
  };
  const atom = (): FilterNode => {
    const token = next();
    if (token === '(') {
      const inner = or();
      expect(')');
      return inner;
    }
    const lower = token?.toLowerCase();
    if (lower === 'not') {
      operatorAllowed('not');
      return { op: 'not', inner: atom() };
    }
    if (lower !== undefined && FUNCTIONS.has(lower) && tokens[at] === '(') {
      operatorAllowed(lower);
      expect('(');
      const property = path(next());
      expect(',');
      const value = literal(next());
      expect(')');
      if (typeof value !== 'string') throw invalid(`${lower} takes a string`);
      return { op: lower as StringFunction, path: property, value };
    }
    const property = path(token);
    const operator = next()?.toLowerCase();
    if (operator === 'in') {
      expect('(');
      const values = [literal(next())];
      while (tokens[at] === ',') {
        at++;
        values.push(literal(next()));
      }
      expect(')');
      return { op: 'in', path: property, values };
    }
    if (operator === undefined || !COMPARISONS.has(operator)) throw invalid(`the operator '${operator ?? ''}' is not supported`);
    operatorAllowed(operator);
    return { op: operator as Comparison, path: property, value: literal(next()) };
  };
  const and = (): FilterNode => {
    let left = atom();
    while (tokens[at]?.toLowerCase() === 'and') {
      at++;
      left = { op: 'and', left, right: atom() };
    }
    return left;
  };
  const or = (): FilterNode => {
    let left = and();
    while (tokens[at]?.toLowerCase() === 'or') {
      at++;
      left = { op: 'or', left, right: and() };
    }
    return left;
  };
  if (tokens.length === 0) throw invalid('the filter is empty');
  const tree = or();
  if (at < tokens.length) throw invalid(`unexpected '${tokens[at]}'`);
  return tree;
}

const DATE = /^\d{4}-\d{2}-\d{2}T/;

/** Orders two values as Graph does: dates by instant, numbers by value, strings without case. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'string' && typeof b === 'string') {
    if (DATE.test(a) && DATE.test(b)) return Date.parse(a) - Date.parse(b);
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b));
}

const same = (value: unknown, wanted: Literal) =>
  typeof value === 'string' && typeof wanted === 'string' ? compareValues(value, wanted) === 0 : (value ?? null) === wanted;

/** Whether an object passes the filter; `read` gives a path's value. Strings compare without case, as in the directory. */
export function matchesFilter(node: FilterNode, read: (path: string) => unknown): boolean {
  switch (node.op) {
    case 'and':
      return matchesFilter(node.left, read) && matchesFilter(node.right, read);
    case 'or':
      return matchesFilter(node.left, read) || matchesFilter(node.right, read);
    case 'not':
      return !matchesFilter(node.inner, read);
    case 'in':
      return node.values.some((wanted) => same(read(node.path), wanted));
    case 'startswith':
    case 'endswith':
    case 'contains': {
      const value = read(node.path);
      if (typeof value !== 'string') return false;
      const text = value.toLowerCase();
      const part = node.value.toLowerCase();
      return node.op === 'startswith' ? text.startsWith(part) : node.op === 'endswith' ? text.endsWith(part) : text.includes(part);
    }
    case 'eq':
      return same(read(node.path), node.value);
    case 'ne':
      return !same(read(node.path), node.value);
    default: {
      const value = read(node.path);
      if (value === null || value === undefined || node.value === null) return false;
      const order = compareValues(value, node.value);
      return node.op === 'gt' ? order > 0 : node.op === 'ge' ? order >= 0 : node.op === 'lt' ? order < 0 : order <= 0;
    }
  }
}
