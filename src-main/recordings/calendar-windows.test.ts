import { describe, expect, it } from 'vitest';
import { eventNamesStream } from './calendar-match';
import { recordingWindows, windowsAt, type WindowEvent } from './calendar-windows';

const T = Date.parse('2026-11-27T09:00:00Z');
const MIN = 60_000;
const rolls = { preRollMs: 5_000, postRollMs: 10_000 };

function event(id: string, startMin: number, endMin: number, more: Partial<WindowEvent> = {}): WindowEvent {
  return { id, subject: null, location: 'cam', startMs: T + startMin * MIN, endMs: T + endMin * MIN, isCancelled: false, ...more };
}

describe('which events name a stream', () => {
  it('finds the name as a word of the location or subject, in any case', () => {
    expect(eventNamesStream({ subject: null, location: 'CAM' }, 'cam')).toBe(true);
    expect(eventNamesStream({ subject: null, location: 'Room cam, 3rd floor' }, 'cam')).toBe(true);
    expect(eventNamesStream({ subject: 'Weekly review (Cam)', location: null }, 'cam')).toBe(true);
    expect(eventNamesStream({ subject: 'room-1: standup', location: null }, 'room-1')).toBe(true);
    expect(eventNamesStream({ subject: 'Kamera Raum', location: 'Raum 2' }, 'raum')).toBe(true);
  });

  it('does not find it inside another word, nor in an empty event', () => {
    expect(eventNamesStream({ subject: 'camera check', location: 'webcam' }, 'cam')).toBe(false);
    expect(eventNamesStream({ subject: 'cam_2 test', location: null }, 'cam')).toBe(false);
    expect(eventNamesStream({ subject: 'door2', location: null }, 'door')).toBe(false);
    expect(eventNamesStream({ subject: null, location: null }, 'cam')).toBe(false);
    expect(eventNamesStream({ subject: 'anything', location: 'x' }, ' ')).toBe(false);
  });

  it('takes a category record:<stream> in any case, and no other category', () => {
    expect(eventNamesStream({ subject: 'Board', location: 'HQ', categories: ['Red', ' Record:Cam '] }, 'cam')).toBe(true);
    expect(eventNamesStream({ subject: 'Board', location: 'HQ', categories: ['record:door'] }, 'cam')).toBe(false);
    expect(eventNamesStream({ subject: 'Board', location: 'HQ', categories: ['cam'] }, 'cam')).toBe(false);
    expect(eventNamesStream({ subject: 'Board', location: 'HQ', categories: 'record:cam' }, 'cam')).toBe(false);
  });
});

describe('recording windows from events', () => {
  it('widens each matching event by the rolls and leaves out cancelled and other events', () => {
    const windows = recordingWindows(
      [
        event('b', 60, 90, { subject: 'Review' }),
        event('a', 0, 30, { subject: 'Standup' }),
        event('x', 10, 20, { location: 'door' }),
        event('c', 120, 150, { isCancelled: true }),
        event('empty', 200, 200),
      ],
      'cam',
      rolls,
    );
    expect(windows).toEqual([
      { fromMs: T - 5_000, untilMs: T + 30 * MIN + 10_000, meetings: [{ id: 'a', subject: 'Standup', startMs: T, endMs: T + 30 * MIN }] },
      {
        fromMs: T + 60 * MIN - 5_000,
        untilMs: T + 90 * MIN + 10_000,
        meetings: [{ id: 'b', subject: 'Review', startMs: T + 60 * MIN, endMs: T + 90 * MIN }],
      },
    ]);
  });

  it('merges windows that overlap or touch once rolled, and nested ones, keeping their meetings by start', () => {
    // a ends at 30 (+10 s), b starts at 30 (-5 s): one window; c inside b; d's pre-roll starts where b's post-roll ends.
    const windows = recordingWindows(
      [event('b', 30, 60), event('a', 0, 30), event('c', 40, 50), event('d', 60 + 15 / 60, 70)],
      'cam',
      rolls,
    );
    expect(windows).toHaveLength(1);
    expect(windows[0]!.fromMs).toBe(T - 5_000);
    expect(windows[0]!.untilMs).toBe(T + 70 * MIN + 10_000);
    expect(windows[0]!.meetings.map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
    const apart = recordingWindows([event('a', 0, 30), event('b', 31, 40)], 'cam', rolls);
    expect(apart.map((w) => w.meetings.map((m) => m.id))).toEqual([['a'], ['b']]);
  });
});

describe('the next start or stop', () => {
  const windows = recordingWindows([event('a', 0, 30), event('b', 60, 90)], 'cam', { preRollMs: 0, postRollMs: 0 });

  it('records inside a window until its end, and waits for the next one outside', () => {
    expect(windowsAt(windows, T - 1)).toEqual({ recording: false, until: T, window: windows[0] });
    expect(windowsAt(windows, T)).toEqual({ recording: true, until: T + 30 * MIN, window: windows[0] });
    expect(windowsAt(windows, T + 30 * MIN - 1)).toMatchObject({ recording: true, until: T + 30 * MIN });
    // The end is not in the window.
    expect(windowsAt(windows, T + 30 * MIN)).toEqual({ recording: false, until: T + 60 * MIN, window: windows[1] });
    expect(windowsAt(windows, T + 90 * MIN)).toEqual({ recording: false });
    expect(windowsAt([], T)).toEqual({ recording: false });
  });
});
