import type { SourcePosition } from './values';

/** The syntax tree of an expression; every node keeps its place in the text for errors. */
export type ExprNode =
  | { kind: 'literal'; value: null | boolean | number | string; at: SourcePosition }
  | { kind: 'array'; items: ExprNode[]; at: SourcePosition }
  | { kind: 'map'; entries: Array<{ key: ExprNode; value: ExprNode }>; at: SourcePosition }
  | { kind: 'name'; name: string; at: SourcePosition }
  | { kind: 'let'; name: string; value: ExprNode; body: ExprNode; at: SourcePosition }
  /** `a.b`, `a?.b`, `a[i]`, `a?.[i]`; `optional` gives nil instead of an error when `a` is nil. */
  | { kind: 'member'; object: ExprNode; property: ExprNode; optional: boolean; at: SourcePosition }
  | { kind: 'slice'; object: ExprNode; from?: ExprNode; to?: ExprNode; at: SourcePosition }
  /** `f(x)` (callee is a name) or `r.json()` (callee is a member). */
  | { kind: 'call'; callee: ExprNode; args: ExprNode[]; at: SourcePosition }
  /** Ends a `?.` chain: a nil met by `?.` anywhere inside makes the whole chain nil. */
  | { kind: 'chain'; node: ExprNode; at: SourcePosition }
  | { kind: 'unary'; operator: string; operand: ExprNode; at: SourcePosition }
  | { kind: 'binary'; operator: string; left: ExprNode; right: ExprNode; at: SourcePosition }
  /** `c ? a : b`; `a ?: b` has `then` undefined (gives `a` unless it is nil or false). */
  | { kind: 'conditional'; condition: ExprNode; then?: ExprNode; otherwise: ExprNode; at: SourcePosition };
