import type { ExprNode } from './ast';
import { tokenize, type Token } from './tokenizer';
import { ExprError, type SourcePosition } from './values';

/** Binary operators and their precedence, as in expr-lang (higher binds tighter). */
const BINARY: Record<string, { precedence: number; rightAssociative?: boolean }> = {
  '|': { precedence: 0 },
  or: { precedence: 10 },
  '||': { precedence: 10 },
  and: { precedence: 15 },
  '&&': { precedence: 15 },
  ...Object.fromEntries(
    ['==', '!=', '<', '>', '<=', '>=', 'in', 'matches', 'contains', 'startsWith', 'endsWith'].map((op) => [op, { precedence: 20 }]),
  ),
  '..': { precedence: 25 },
  '+': { precedence: 30 },
  '-': { precedence: 30 },
  '*': { precedence: 60 },
  '/': { precedence: 60 },
  '%': { precedence: 60 },
  '**': { precedence: 100, rightAssociative: true },
  '^': { precedence: 100, rightAssociative: true },
  '??': { precedence: 500 },
};

const UNARY: Record<string, number> = { not: 50, '!': 50, '-': 90, '+': 90 };

/** Operators that `not` may negate: `a not in b`, `s not contains "x"`. */
const NEGATABLE = new Set(['in', 'matches', 'contains', 'startsWith', 'endsWith']);

const MAX_DEPTH = 100;

/** Parses expression text into a tree; errors say where (line, column) and what was expected. */
export function parseExpression(text: string): ExprNode {
  return new Parser(tokenize(text)).parseProgram();
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return 'the end of the expression';
    case 'string':
      return `string ${JSON.stringify(token.value.length > 20 ? `${token.value.slice(0, 20)}...` : token.value)}`;
    case 'number':
      return `number ${token.value}`;
    case 'identifier':
      return `name ${token.value}`;
    default:
      return `"${token.value}"`;
  }
}

const at = (token: Token): SourcePosition => ({ line: token.line, column: token.column });

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parseProgram(): ExprNode {
    const node = this.parseExpression(0);
    if (this.isOperator(';')) this.next(); // a trailing `;` after the last expression is harmless
    if (this.current.kind !== 'eof') this.fail(`expected an operator or the end of the expression but found ${describe(this.current)}`);
    return node;
  }

  private get current(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.current;
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  private isOperator(value: string, token = this.current): boolean {
    return token.kind === 'operator' && token.value === value;
  }

  private isBracket(value: string): boolean {
    return this.current.kind === 'bracket' && this.current.value === value;
  }

  private fail(message: string, token = this.current): never {
    throw new ExprError(message, at(token));
  }

  private expect(kind: 'operator' | 'bracket', value: string, context = ''): Token {
    if (this.current.kind !== kind || this.current.value !== value)
      this.fail(`expected "${value}"${context} but found ${describe(this.current)}`);
    return this.next();
  }

  private parseExpression(precedence: number): ExprNode {
    if (++this.depth > MAX_DEPTH) this.fail(`the expression nests more than ${MAX_DEPTH} levels deep`);
    try {
      if (precedence === 0 && this.isOperator('let')) return this.parseLet();
      let left = this.parsePrimary();
      let previous = '';
      for (;;) {
        const token = this.current;
        if (token.kind !== 'operator') break;
        let operator = token.value;
        let negated = false;
        if (operator === 'not') {
          const following = this.tokens[this.index + 1]!;
          if (following.kind !== 'operator' || !NEGATABLE.has(following.value)) break;
          negated = true;
          operator = following.value;
        }
        const info = BINARY[operator];
        if (!info || info.precedence < precedence) break;
        this.next();
        if (negated) this.next();
        if (operator === '|') {
          left = this.parsePipe(left, token);
        } else {
          if (previous === '??' && operator !== '??') this.fail(`"??" and "${operator}" cannot be mixed: add parentheses`, token);
          const right = this.parseExpression(info.rightAssociative ? info.precedence : info.precedence + 1);
          left = { kind: 'binary', operator, left, right, at: at(token) };
          if (negated) left = { kind: 'unary', operator: 'not', operand: left, at: at(token) };
        }
        previous = operator;
      }
      return precedence === 0 ? this.parseConditional(left) : left;
    } finally {
      this.depth--;
    }
  }

  private parseLet(): ExprNode {
    this.next();
    const name = this.current;
    if (name.kind !== 'identifier') this.fail(`expected a name after let but found ${describe(name)}`);
    this.next();
    this.expect('operator', '=', ` after let ${name.value}`);
    const value = this.parseExpression(0);
    this.expect('operator', ';', ` after the value of ${name.value}`);
    return { kind: 'let', name: name.value, value, body: this.parseExpression(0), at: at(name) };
  }

  /** `x | f(a)` is `f(x, a)`. */
  private parsePipe(left: ExprNode, token: Token): ExprNode {
    const name = this.current;
    if (name.kind !== 'identifier') this.fail(`expected a function name after | but found ${describe(name)}`);
    this.next();
    return {
      kind: 'call',
      callee: { kind: 'name', name: name.value, at: at(name) },
      args: [left, ...this.parseArguments()],
      at: at(token),
    };
  }

  private parseConditional(condition: ExprNode): ExprNode {
    let node = condition;
    while (this.isOperator('?')) {
      const token = this.next();
      if (this.isOperator(':')) {
        this.next();
        node = { kind: 'conditional', condition: node, otherwise: this.parseExpression(0), at: at(token) };
      } else {
        const then = this.parseExpression(0);
        this.expect('operator', ':', ' in "condition ? a : b"');
        node = { kind: 'conditional', condition: node, then, otherwise: this.parseExpression(0), at: at(token) };
      }
    }
    return node;
  }

  private parsePrimary(): ExprNode {
    const token = this.current;
    if (token.kind === 'operator' && token.value in UNARY) {
      this.next();
      const operand = this.parseExpression(UNARY[token.value]!);
      return this.parsePostfix({ kind: 'unary', operator: token.value === '!' ? 'not' : token.value, operand, at: at(token) });
    }
    if (this.isBracket('(')) {
      this.next();
      const inner = this.parseExpression(0);
      this.expect('bracket', ')', ` to close "(" at line ${token.line}, column ${token.column}`);
      return this.parsePostfix(inner);
    }
    return this.parseValue();
  }

  private parseValue(): ExprNode {
    const token = this.current;
    if (token.kind === 'identifier') {
      this.next();
      if (token.value === 'true' || token.value === 'false') return { kind: 'literal', value: token.value === 'true', at: at(token) };
      if (token.value === 'nil') return { kind: 'literal', value: null, at: at(token) };
      const name: ExprNode = { kind: 'name', name: token.value, at: at(token) };
      return this.parsePostfix(this.isBracket('(') ? { kind: 'call', callee: name, args: this.parseArguments(), at: at(token) } : name);
    }
    if (token.kind === 'number') {
      this.next();
      return { kind: 'literal', value: token.number!, at: at(token) };
    }
    if (token.kind === 'string') {
      this.next();
      return this.parsePostfix({ kind: 'literal', value: token.value, at: at(token) });
    }
    if (this.isBracket('[')) return this.parsePostfix(this.parseArray());
    if (this.isBracket('{')) return this.parsePostfix(this.parseMap());
    return this.fail(`expected a value (a name, number, string, [array], {map} or (...)) but found ${describe(token)}`);
  }

  /** `(a, b,)`: a trailing comma is allowed, as in expr-lang. */
  private parseArguments(): ExprNode[] {
    const open = this.expect('bracket', '(');
    const args: ExprNode[] = [];
    while (!this.isBracket(')')) {
      if (args.length > 0) {
        this.expect('operator', ',', ` or ")" to close the arguments opened at line ${open.line}, column ${open.column}`);
        if (this.isBracket(')')) break;
      }
      args.push(this.parseExpression(0));
    }
    this.next();
    return args;
  }

  private parseArray(): ExprNode {
    const open = this.next();
    const items: ExprNode[] = [];
    while (!this.isBracket(']')) {
      if (items.length > 0) {
        this.expect('operator', ',', ` or "]" to close the array opened at line ${open.line}, column ${open.column}`);
        if (this.isBracket(']')) break;
      }
      items.push(this.parseExpression(0));
    }
    this.next();
    return { kind: 'array', items, at: at(open) };
  }

  /** `{a: 1, "b c": 2, 3: x, (k): v}`: a bare name or number key is its own text. */
  private parseMap(): ExprNode {
    const open = this.next();
    const entries: Array<{ key: ExprNode; value: ExprNode }> = [];
    while (!this.isBracket('}')) {
      if (entries.length > 0) {
        this.expect('operator', ',', ` or "}" to close the map opened at line ${open.line}, column ${open.column}`);
        if (this.isBracket('}')) break;
      }
      const keyToken = this.current;
      let key: ExprNode;
      if (
        keyToken.kind === 'string' ||
        keyToken.kind === 'number' ||
        keyToken.kind === 'identifier' ||
        (keyToken.kind === 'operator' && /^[a-z]/i.test(keyToken.value))
      ) {
        this.next();
        key = { kind: 'literal', value: keyToken.value, at: at(keyToken) };
      } else if (this.isBracket('(')) {
        key = this.parsePrimary();
      } else {
        return this.fail(`expected a map key (a name, a quoted string, a number or an (expression)) but found ${describe(keyToken)}`);
      }
      this.expect('operator', ':', ` after the map key`);
      entries.push({ key, value: this.parseExpression(0) });
    }
    this.next();
    return { kind: 'map', entries, at: at(open) };
  }

  /** Member access, indexes, slices and method calls after a value; `?.` makes the chain nil-safe. */
  private parsePostfix(start: ExprNode): ExprNode {
    let node = start;
    let optionalSeen = false;
    for (;;) {
      const token = this.current;
      const optional = this.isOperator('?.');
      if (optional || this.isOperator('.')) {
        this.next();
        optionalSeen ||= optional;
        if (optional && this.isBracket('[')) {
          node = this.parseIndex(node, true);
          continue;
        }
        const property = this.current;
        if (property.kind !== 'identifier' && !(property.kind === 'operator' && /^[a-z]/i.test(property.value)))
          this.fail(`expected a field name after "${token.value}" but found ${describe(property)}`);
        this.next();
        const member: ExprNode = {
          kind: 'member',
          object: node,
          property: { kind: 'literal', value: property.value, at: at(property) },
          optional,
          at: at(property),
        };
        node = this.isBracket('(') ? { kind: 'call', callee: member, args: this.parseArguments(), at: at(property) } : member;
      } else if (this.isBracket('[')) {
        node = this.parseIndex(node, false);
      } else {
        break;
      }
    }
    return optionalSeen ? { kind: 'chain', node, at: start.at } : node;
  }

  /** `a[i]`, `a[from:to]`, `a[:to]`, `a[from:]`; the current token is `[`. */
  private parseIndex(object: ExprNode, optional: boolean): ExprNode {
    const open = this.next();
    const close = ` to close "[" at line ${open.line}, column ${open.column}`;
    const from = this.isOperator(':') ? undefined : this.parseExpression(0);
    if (this.isOperator(':')) {
      this.next();
      const to = this.isBracket(']') ? undefined : this.parseExpression(0);
      this.expect('bracket', ']', close);
      return { kind: 'slice', object, ...(from ? { from } : {}), ...(to ? { to } : {}), at: at(open) };
    }
    this.expect('bracket', ']', close);
    return { kind: 'member', object, property: from!, optional, at: at(open) };
  }
}
