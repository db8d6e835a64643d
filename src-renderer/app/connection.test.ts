import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../api/transport-websocket';
import { clockTime, disconnectedMessage, initialConnection, isDisconnected, nextConnection, type Connection } from './connection';

const run = (...steps: Array<[ConnectionState, number]>): Connection =>
  steps.reduce((connection, [state, at]) => nextConnection(connection, state, at), initialConnection);

describe('console connection', () => {
  it.each<{ name: string; steps: Array<[ConnectionState, number]>; disconnected: boolean; since?: number; reconnects: number }>([
    { name: 'the first connection being made', steps: [['connecting', 1]], disconnected: false, reconnects: 0 },
    {
      name: 'connected',
      steps: [
        ['connecting', 1],
        ['open', 2],
      ],
      disconnected: false,
      reconnects: 0,
    },
    {
      name: 'the first connection failing',
      steps: [
        ['connecting', 1],
        ['closed', 2],
      ],
      disconnected: true,
      since: 2,
      reconnects: 0,
    },
    {
      name: 'a lost link, retrying',
      steps: [
        ['open', 1],
        ['closed', 5],
        ['connecting', 6],
        ['closed', 7],
        ['connecting', 9],
      ],
      disconnected: true,
      since: 5,
      reconnects: 0,
    },
    {
      name: 'a lost link that came back',
      steps: [
        ['open', 1],
        ['closed', 5],
        ['connecting', 6],
        ['open', 8],
      ],
      disconnected: false,
      reconnects: 1,
    },
    {
      name: 'two outages',
      steps: [
        ['open', 1],
        ['closed', 5],
        ['open', 8],
        ['closed', 20],
        ['open', 30],
      ],
      disconnected: false,
      reconnects: 2,
    },
    {
      name: 'the first connection coming after a failure',
      steps: [
        ['closed', 1],
        ['open', 4],
      ],
      disconnected: false,
      reconnects: 1,
    },
  ])('$name', ({ steps, disconnected, since, reconnects }) => {
    const connection = run(...steps);
    expect(isDisconnected(connection)).toBe(disconnected);
    expect(connection.disconnectedSince).toBe(since);
    expect(connection.reconnects).toBe(reconnects);
  });

  it('says since when, to the second', () => {
    const at = new Date(2026, 10, 27, 14, 2, 11).getTime();
    expect(clockTime(at)).toBe('14:02:11');
    expect(clockTime(new Date(2026, 0, 1, 9, 5, 7).getTime())).toBe('09:05:07');
    expect(disconnectedMessage(at)).toBe('Disconnected from the relay since 14:02:11 — reconnecting…');
  });
});
