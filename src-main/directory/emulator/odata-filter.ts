import { badRequest } from './graph-error';

// The part of OData's $filter that Graph's directory collections answer: comparisons with eq
// and ne, startswith(), joined by and/or, with parentheses. Enough for the filters clients
// send (`state eq 'delivered' and accessPackage/id eq '…'`, `startswith(displayName,'a')`);
// anything else is refused as Graph refuses a clause it does not support.

type Literal = string | number | boolean | null;
export type FilterNode =
  | { op: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { op: 'eq' | 'ne'; path: string; value: Literal }
  | { op: 'startswith'; path: string; value: string };

const TOKEN = /\s*(\(|\)|,|'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*|-?\d+(?:\.\d+)?)/y;

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

const invalid = (why: string) => badRequest('BadRequest', `Invalid filter clause: ${why}.`);

function literal(token: string | undefined): Literal {
  if (token === undefined) throw invalid('a value is missing');
  if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
  if (token === 'true' || token === 'false') return token === 'true';
  if (token === 'null') return null;
  if (/^-?\d/.test(token)) return Number(token);
  throw invalid(`'${token}' is not a value`);
}

/** Parses a $filter; `paths` lists the property paths the collection can be filtered on. */
export function parseFilter(text: string, paths: readonly string[], type: string): FilterNode {
  const tokens = tokenize(text);
  let at = 0;
  const next = () => tokens[at++];
  const expect = (wanted: string) => {
    if (tokens[at] !== wanted) throw invalid(`expected '${wanted}'`);
    at++;
  };
  const path = (token: string | undefined): string => {
    if (token === undefined || !/^[A-Za-z_]/.test(token)) throw invalid('a property name is missing');
    if (!paths.includes(token)) throw badRequest('BadRequest', `Could not find a property named '${token}' on type 'microsoft.graph.${type}'.`);
    return token;
  };
  const atom = (): FilterNode => {
    const token = next();
    if (token === '(') {
      const inner = or();
      expect(')');
      return inner;
    }
    if (token?.toLowerCase() === 'startswith') {
      expect('(');
      const property = path(next());
      expect(',');
      const value = literal(next());
      expect(')');
      if (typeof value !== 'string') throw invalid('startswith takes a string');
      return { op: 'startswith', path: property, value };
    }
    const property = path(token);
    const operator = next()?.toLowerCase();
    if (operator !== 'eq' && operator !== 'ne') throw invalid(`the operator '${operator ?? ''}' is not supported`);
    return { op: operator, path: property, value: literal(next()) };
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

/** Whether an object passes the filter; `read` gives a path's value. Strings compare without case, as in the directory. */
export function matchesFilter(node: FilterNode, read: (path: string) => unknown): boolean {
  switch (node.op) {
    case 'and':
      return matchesFilter(node.left, read) && matchesFilter(node.right, read);
    case 'or':
      return matchesFilter(node.left, read) || matchesFilter(node.right, read);
    case 'startswith': {
      const value = read(node.path);
      return typeof value === 'string' && value.toLowerCase().startsWith(node.value.toLowerCase());
    }
    default: {
      const value = read(node.path) ?? null;
      const same = typeof value === 'string' && typeof node.value === 'string' ? value.toLowerCase() === node.value.toLowerCase() : value === node.value;
      return node.op === 'eq' ? same : !same;
    }
  }
}
