import { badRequest } from './graph-error';
import { fromBase64Url, hmac, sameSignature, toBase64Url } from './signing';

/**
 * What a calendarView/delta URL carries between calls. A deltatoken says "the client has seen
 * everything up to `from`"; a skiptoken says "this round covers changes in (from, to] and the
 * client has the entries before `cursor`". Both hold the user and the window given on the first
 * call, so later calls take no other query parameters.
 */
export interface SyncState {
  kind: 'delta' | 'skip';
  user: string;
  windowStart: number;
  windowEnd: number;
  /** Sequence the client is in step with; -1 for a round that is a full synchronisation. */
  from: number;
  /** Sequence the round reads up to (skip tokens only). */
  to?: number;
  /** Position in the round: the event being delivered and how many of its entries went out. */
  cursor?: { event: string; sent: number };
}

interface Packed {
  k: 'd' | 's';
  u: string;
  ws: number;
  we: number;
  f: number;
  t?: number;
  ce?: string;
  cn?: number;
}

/** `<payload>.<hmac>`: readable, but a changed or made-up token fails the signature check. */
export function encodeSyncState(state: SyncState, key: Buffer): string {
  const packed: Packed = {
    k: state.kind === 'delta' ? 'd' : 's',
    u: state.user,
    ws: state.windowStart,
    we: state.windowEnd,
    f: state.from,
  };
  if (state.to !== undefined) packed.t = state.to;
  if (state.cursor) {
    packed.ce = state.cursor.event;
    packed.cn = state.cursor.sent;
  }
  const payload = toBase64Url(packed);
  return `${payload}.${hmac(key, `sync:${payload}`)}`;
}

/** Checks the signature and shape; anything else is Graph's 400 for a bad token. */
export function decodeSyncState(token: string, kind: SyncState['kind'], key: Buffer): SyncState {
  const name = kind === 'delta' ? '$deltaToken' : '$skipToken';
  const invalid = badRequest(
    kind === 'delta' ? 'InvalidDeltaToken' : 'InvalidSkipToken',
    `The value '${token.slice(0, 64)}' of parameter '${name}' is invalid.`,
  );
  const dot = token.indexOf('.');
  if (dot < 0) throw invalid;
  const payload = token.slice(0, dot);
  if (!sameSignature(token.slice(dot + 1), hmac(key, `sync:${payload}`))) throw invalid;
  const p = fromBase64Url(payload) as Partial<Packed> | undefined;
  if (
    !p ||
    p.k !== (kind === 'delta' ? 'd' : 's') ||
    typeof p.u !== 'string' ||
    typeof p.ws !== 'number' ||
    typeof p.we !== 'number' ||
    typeof p.f !== 'number'
  )
    throw invalid;
  const state: SyncState = { kind, user: p.u, windowStart: p.ws, windowEnd: p.we, from: p.f };
  if (kind === 'skip') {
    if (typeof p.t !== 'number') throw invalid;
    state.to = p.t;
    if (typeof p.ce === 'string' && typeof p.cn === 'number') state.cursor = { event: p.ce, sent: p.cn };
  }
  return state;
}
