import { compileGoRegExp } from './go-regexp';
import { ExprError, isMap, typeName, valuesEqual, type ExprValue } from './values';

/** Longest list `a..b` may build, so a typo cannot eat the memory. */
const MAX_RANGE = 100_000;

const mismatch = (operator: string, left: ExprValue, right: ExprValue) =>
  new ExprError(`invalid operation: ${typeName(left)} ${operator} ${typeName(right)}`);

/** Operators whose both sides are already evaluated (`and`, `or`, `??` short-circuit in the evaluator). */
export function applyBinary(operator: string, left: ExprValue, right: ExprValue): ExprValue {
  switch (operator) {
    case '==':
      return valuesEqual(left, right);
    case '!=':
      return !valuesEqual(left, right);
    case '+':
      if (typeof left === 'number' && typeof right === 'number') return left + right;
      if (typeof left === 'string' && typeof right === 'string') return left + right;
      if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
      throw new ExprError(
        `invalid operation: ${typeName(left)} + ${typeName(right)}${typeof left === 'string' || typeof right === 'string' ? ' (use string(x) to turn a value into text)' : ''}`,
      );
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(operator, left, right);
    case 'in':
      if (Array.isArray(right)) return right.some((item) => valuesEqual(item, left));
      if (isMap(right)) {
        if (typeof left !== 'string') throw mismatch(operator, left, right);
        return right.has(left);
      }
      throw new ExprError(
        `invalid operation: ${typeName(left)} in ${typeName(right)} (in needs an array or a map on its right; for text use contains)`,
      );
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      if (typeof left !== 'string' || typeof right !== 'string') throw mismatch(operator, left, right);
      return operator === 'contains' ? left.includes(right) : operator === 'startsWith' ? left.startsWith(right) : left.endsWith(right);
    case 'matches':
      if (typeof left !== 'string' || typeof right !== 'string') throw mismatch(operator, left, right);
      return compileGoRegExp(right).test(left);
    case '..':
      return range(left, right);
    default:
      return arithmetic(operator, left, right);
  }
}

function compare(operator: string, left: ExprValue, right: ExprValue): boolean {
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) throw mismatch(operator, left, right);
  const l = left as number | string;
  const r = right as number | string;
  return operator === '<' ? l < r : operator === '<=' ? l <= r : operator === '>' ? l > r : l >= r;
}

function arithmetic(operator: string, left: ExprValue, right: ExprValue): number {
  if (typeof left !== 'number' || typeof right !== 'number') throw mismatch(operator, left, right);
  switch (operator) {
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return left / right;
    case '%':
      if (!Number.isInteger(left) || !Number.isInteger(right)) throw mismatch(operator, left, right);
      if (right === 0) throw new ExprError('integer divide by zero');
      return left % right;
    case '**':
    case '^':
      return left ** right;
    default:
      throw new ExprError(`unknown operator ${operator}`);
  }
}

function range(from: ExprValue, to: ExprValue): number[] {
  if (typeof from !== 'number' || typeof to !== 'number' || !Number.isInteger(from) || !Number.isInteger(to))
    throw mismatch('..', from, to);
  if (to - from + 1 > MAX_RANGE) throw new ExprError(`range ${from}..${to} is longer than ${MAX_RANGE}`);
  const items: number[] = [];
  for (let i = from; i <= to; i++) items.push(i);
  return items;
}

/** `-x`, `+x`, `not x` / `!x`. */
export function applyUnary(operator: string, operand: ExprValue): ExprValue {
  if (operator === 'not') {
    if (typeof operand !== 'boolean') throw new ExprError(`invalid operation: not ${typeName(operand)} (not needs a bool)`);
    return !operand;
  }
  if (typeof operand !== 'number') throw new ExprError(`invalid operation: ${operator}${typeName(operand)}`);
  return operator === '-' ? -operand : operand;
}

/** `and`, `or`, `? :` and `!` take bools only, as in expr-lang: a mistake shows instead of guessing. */
export function requireBool(value: ExprValue, role: string): boolean {
  if (typeof value !== 'boolean') throw new ExprError(`${role} must be a bool, got ${typeName(value)}`);
  return value;
}
