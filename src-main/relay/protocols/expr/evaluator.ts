import type { ExprNode } from './ast';
import { applyBinary, applyUnary, requireBool } from './operators';
import { ExprError, ExprFunction, isMap, typeName, type CallContext, type ExprValue } from './values';

/** The names an expression sees: `let` bindings first, then the environment (builtins). */
export interface Scope {
  lookup(name: string): ExprValue | undefined;
}

/** Marks a nil met by `?.`: the enclosing chain node turns it into nil. */
const SHORT_CIRCUIT = Symbol('short-circuit');
type Result = ExprValue | typeof SHORT_CIRCUIT;

/** Evaluates a parsed expression; awaits calls (fetch) in order, left to right. */
export function evaluate(node: ExprNode, scope: Scope, context: CallContext): Promise<ExprValue> {
  return new Evaluator(context).value(node, scope);
}

class Evaluator {
  constructor(private readonly context: CallContext) {}

  async value(node: ExprNode, scope: Scope): Promise<ExprValue> {
    const result = await this.run(node, scope);
    return result === SHORT_CIRCUIT ? null : result;
  }

  private async run(node: ExprNode, scope: Scope): Promise<Result> {
    try {
      return await this.dispatch(node, scope);
    } catch (error) {
      if (error instanceof ExprError && error.position) throw error;
      if (this.context.signal.aborted) throw error;
      // The innermost node that failed gives the position.
      throw new ExprError(error instanceof ExprError ? error.detail : (error as Error).message, node.at);
    }
  }

  private async dispatch(node: ExprNode, scope: Scope): Promise<Result> {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'array': {
        const items: ExprValue[] = [];
        for (const item of node.items) items.push(await this.value(item, scope));
        return items;
      }
      case 'map': {
        const map = new Map<string, ExprValue>();
        for (const entry of node.entries) {
          const key = await this.value(entry.key, scope);
          if (typeof key !== 'string' && typeof key !== 'number') throw new ExprError(`a map key must be a string, got ${typeName(key)}`);
          map.set(String(key), await this.value(entry.value, scope));
        }
        return map;
      }
      case 'name': {
        const value = scope.lookup(node.name);
        if (value === undefined) throw new ExprError(`unknown name ${node.name}`);
        return value;
      }
      case 'let': {
        const bound = await this.value(node.value, scope);
        const inner: Scope = { lookup: (name) => (name === node.name ? bound : scope.lookup(name)) };
        return this.run(node.body, inner);
      }
      case 'chain':
        return this.value(node.node, scope);
      case 'member': {
        const object = await this.run(node.object, scope);
        if (object === SHORT_CIRCUIT) return object;
        if (object === null && node.optional) return SHORT_CIRCUIT;
        return member(object, await this.value(node.property, scope));
      }
      case 'slice': {
        const object = await this.run(node.object, scope);
        if (object === SHORT_CIRCUIT) return object;
        const from = node.from ? await this.value(node.from, scope) : null;
        const to = node.to ? await this.value(node.to, scope) : null;
        return slice(object, from, to);
      }
      case 'call':
        return this.call(node, scope);
      case 'unary':
        return applyUnary(node.operator, await this.value(node.operand, scope));
      case 'binary':
        return this.binary(node.operator, node.left, node.right, scope);
      case 'conditional': {
        const condition = await this.value(node.condition, scope);
        if (!node.then) return condition === null || condition === false ? this.value(node.otherwise, scope) : condition;
        return requireBool(condition, 'the condition of "? :"') ? this.value(node.then, scope) : this.value(node.otherwise, scope);
      }
    }
  }

  private async binary(operator: string, leftNode: ExprNode, rightNode: ExprNode, scope: Scope): Promise<ExprValue> {
    const left = await this.value(leftNode, scope);
    if (operator === '??') return left === null ? this.value(rightNode, scope) : left;
    if (operator === 'and' || operator === '&&')
      return (
        requireBool(left, `the left side of ${operator}`) &&
        requireBool(await this.value(rightNode, scope), `the right side of ${operator}`)
      );
    if (operator === 'or' || operator === '||')
      return (
        requireBool(left, `the left side of ${operator}`) ||
        requireBool(await this.value(rightNode, scope), `the right side of ${operator}`)
      );
    return applyBinary(operator, left, await this.value(rightNode, scope));
  }

  private async call(node: Extract<ExprNode, { kind: 'call' }>, scope: Scope): Promise<Result> {
    const callee = await this.run(node.callee, scope);
    if (callee === SHORT_CIRCUIT) return callee;
    const name =
      node.callee.kind === 'name'
        ? node.callee.name
        : node.callee.kind === 'member' && node.callee.property.kind === 'literal'
          ? String(node.callee.property.value)
          : 'the value';
    if (!(callee instanceof ExprFunction))
      throw new ExprError(
        `${name} is a ${typeName(callee)}, not a function${node.callee.kind === 'member' ? ` (write .${name} without "()")` : ''}`,
      );
    const args: ExprValue[] = [];
    for (const arg of node.args) args.push(await this.value(arg, scope));
    return callee.call(args, this.context);
  }
}

/** `a.b` / `a["b"]` on a map (a missing key is nil), `a[i]` on an array or string (negative from the end). */
function member(object: ExprValue, property: ExprValue): ExprValue {
  if (isMap(object)) {
    if (typeof property !== 'string') throw new ExprError(`a map key must be a string, got ${typeName(property)}`);
    return object.has(property) ? object.get(property)! : null;
  }
  if (Array.isArray(object) || typeof object === 'string') {
    if (typeof property !== 'number' || !Number.isInteger(property))
      throw new ExprError(`cannot read ${formatProperty(property)} of ${typeName(object)} (an index must be an int)`);
    const index = property < 0 ? object.length + property : property;
    if (index < 0 || index >= object.length) throw new ExprError(`index ${property} is out of range (length ${object.length})`);
    return object[index]!;
  }
  throw new ExprError(`cannot read ${formatProperty(property)} of ${typeName(object)}${object === null ? ' (use ?. to allow nil)' : ''}`);
}

function formatProperty(property: ExprValue): string {
  return typeof property === 'string' ? JSON.stringify(property) : String(property);
}

/** `a[from:to]`, clamped to the bounds as in expr-lang; negative counts from the end. */
function slice(object: ExprValue, from: ExprValue, to: ExprValue): ExprValue {
  if (!Array.isArray(object) && typeof object !== 'string') throw new ExprError(`cannot slice ${typeName(object)}`);
  const bound = (value: ExprValue, fallback: number) => {
    if (value === null) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new ExprError(`slice bounds must be ints, got ${typeName(value)}`);
    const index = value < 0 ? object.length + value : value;
    return Math.min(Math.max(index, 0), object.length);
  };
  const start = bound(from, 0);
  const end = Math.max(bound(to, object.length), start);
  return object.slice(start, end);
}
