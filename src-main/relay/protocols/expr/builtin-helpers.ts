import { ExprError, ExprFunction, isMap, typeName, type CallContext, type ExprMap, type ExprValue } from './values';

/** A builtin with its arity checked before it runs, so its body can trust the argument count. */
export function builtin(
  name: string,
  arity: [min: number, max: number],
  body: (args: ExprValue[], context: CallContext) => ExprValue | Promise<ExprValue>,
): ExprFunction {
  return new ExprFunction(name, (args, context) => {
    const [min, max] = arity;
    if (args.length < min || args.length > max) {
      const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw new ExprError(`${name} takes ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}`);
    }
    return body(args, context);
  });
}

export function stringArg(fn: string, value: ExprValue, position: number): string {
  if (typeof value !== 'string') throw new ExprError(`${fn}: argument ${position} must be a string, got ${typeName(value)}`);
  return value;
}

export function intArg(fn: string, value: ExprValue, position: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new ExprError(`${fn}: argument ${position} must be an int, got ${typeName(value)}`);
  return value;
}

export function arrayArg(fn: string, value: ExprValue, position: number): ExprValue[] {
  if (!Array.isArray(value)) throw new ExprError(`${fn}: argument ${position} must be an array, got ${typeName(value)}`);
  return value;
}

export function mapArg(fn: string, value: ExprValue, position: number): ExprMap {
  if (!isMap(value)) throw new ExprError(`${fn}: argument ${position} must be a map, got ${typeName(value)}`);
  return value;
}
