/**
 * The values an expression works with. Maps are `Map`s, never plain objects, so a key such as
 * `__proto__` or `constructor` in fetched JSON is just a key.
 */
export type ExprValue = null | boolean | number | string | ExprValue[] | ExprMap | ExprFunction;
export type ExprMap = Map<string, ExprValue>;

/** Where an error happened in the expression text (1-based). */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Anything wrong with an expression, with the place in its text when known. */
export class ExprError extends Error {
  constructor(
    readonly detail: string,
    readonly position?: SourcePosition,
  ) {
    super(position ? `line ${position.line}, column ${position.column}: ${detail}` : detail);
    this.name = 'ExprError';
  }
}

/** What a builtin or a method (such as a fetch response's `json()`) is given when called. */
export interface CallContext {
  /** Aborted when the dial is no longer wanted; long work (fetch) stops with it. */
  signal: AbortSignal;
}

/** A callable value: builtins, `fetch`, `match`, and a fetch response's `json`. */
export class ExprFunction {
  constructor(
    readonly name: string,
    readonly call: (args: ExprValue[], context: CallContext) => ExprValue | Promise<ExprValue>,
  ) {}
}

export function isMap(value: ExprValue): value is ExprMap {
  return value instanceof Map;
}

/** The type name used in error messages, in the words of the language (nil, bool, map...). */
export function typeName(value: ExprValue): string {
  if (value === null) return 'nil';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (value instanceof ExprFunction) return 'function';
  return 'map';
}

/** Text of a value as go2rtc prints it (Go's `%v`): used by string(), header and form values. */
export function formatValue(value: ExprValue): string {
  if (value === null) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(' ')}]`;
  if (value instanceof ExprFunction) return `<func ${value.name}>`;
  const pairs = [...value.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${pairs.map(([k, v]) => `${k}:${formatValue(v)}`).join(' ')}]`;
}

/** Parsed JSON into expression values (objects become maps). */
export function fromJson(value: unknown): ExprValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(fromJson);
  if (typeof value === 'object') return new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fromJson(v)]));
  return null;
}

/** An expression value as plain JSON data; functions cannot be sent. */
export function toJson(value: ExprValue): unknown {
  if (value instanceof ExprFunction) throw new ExprError(`cannot turn function ${value.name} into JSON`);
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [k, v] of value)
      Object.defineProperty(object, k, { value: toJson(v), enumerable: true, writable: true, configurable: true });
    return object;
  }
  return value;
}

/** Deep equality as `==` has it: numbers by value, arrays and maps element by element. */
export function valuesEqual(a: ExprValue, b: ExprValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => valuesEqual(item, b[i]!));
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !valuesEqual(v, b.get(k)!)) return false;
    return true;
  }
  return false;
}
