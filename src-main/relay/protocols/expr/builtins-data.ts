import { builtin, mapArg, stringArg } from './builtin-helpers';
import { ExprError, formatValue, fromJson, isMap, toJson, typeName, type ExprFunction, type ExprValue } from './values';

function length(value: ExprValue): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (isMap(value)) return value.size;
  throw new ExprError(`len: cannot take the length of ${typeName(value)}`);
}

function toInt(value: ExprValue): number {
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value);
  throw new ExprError(`int: cannot turn ${typeName(value)} ${JSON.stringify(formatValue(value))} into an int`);
}

function toFloat(value: ExprValue): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  throw new ExprError(`float: cannot turn ${typeName(value)} ${JSON.stringify(formatValue(value))} into a float`);
}

function numbers(fn: string, args: ExprValue[]): number[] {
  const list = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  if (list.length === 0) throw new ExprError(`${fn}: needs at least one number`);
  return list.map((value, i) => {
    if (typeof value !== 'number') throw new ExprError(`${fn}: argument ${i + 1} must be a number, got ${typeName(value)}`);
    return value;
  });
}

/** Conversion and collection builtins of expr-lang. */
export function dataBuiltins(): ExprFunction[] {
  return [
    builtin('len', [1, 1], ([v]) => length(v!)),
    builtin('string', [1, 1], ([v]) => formatValue(v!)),
    builtin('int', [1, 1], ([v]) => toInt(v!)),
    builtin('float', [1, 1], ([v]) => toFloat(v!)),
    builtin('type', [1, 1], ([v]) => typeName(v!)),
    builtin('abs', [1, 1], ([v]) => Math.abs(numbers('abs', [v!])[0]!)),
    builtin('min', [1, Infinity], (args) => Math.min(...numbers('min', args))),
    builtin('max', [1, Infinity], (args) => Math.max(...numbers('max', args))),
    builtin('toJSON', [1, 1], ([v]) => JSON.stringify(toJson(v!), null, 2)),
    builtin('fromJSON', [1, 1], ([v]) => {
      try {
        return fromJson(JSON.parse(stringArg('fromJSON', v!, 1)));
      } catch (error) {
        throw new ExprError(`fromJSON: ${(error as Error).message}`);
      }
    }),
    builtin('toBase64', [1, 1], ([v]) => Buffer.from(stringArg('toBase64', v!, 1)).toString('base64')),
    builtin('fromBase64', [1, 1], ([v]) => Buffer.from(stringArg('fromBase64', v!, 1), 'base64').toString()),
    builtin('keys', [1, 1], ([m]) => [...mapArg('keys', m!, 1).keys()]),
    builtin('values', [1, 1], ([m]) => [...mapArg('values', m!, 1).values()]),
    builtin('first', [1, 1], ([v]) => (Array.isArray(v) || typeof v === 'string' ? (v[0] ?? null) : null)),
    builtin('last', [1, 1], ([v]) => (Array.isArray(v) || typeof v === 'string' ? (v.at(-1) ?? null) : null)),
    builtin('get', [2, 2], ([v, key]) => {
      if (isMap(v) && typeof key === 'string') return v.get(key) ?? null;
      if ((Array.isArray(v) || typeof v === 'string') && typeof key === 'number' && Number.isInteger(key)) return v.at(key) ?? null;
      return null;
    }),
  ];
}
