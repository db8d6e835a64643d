import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '@shared/contract/directory';
import { meetingsOf, namesCamera } from './meetings';

const event = (over: Partial<CalendarEvent>): CalendarEvent => ({
  id: 'e1',
  subject: 'Weekly review',
  start: '2026-11-27T08:00:00Z',
  end: '2026-11-27T09:00:00Z',
  isAllDay: false,
  isCancelled: false,
  location: null,
  lastModifiedDateTime: null,
  graph: {},
  ...over,
});

describe('meetings that name a camera', () => {
  it.each([
    ['its location is the camera', event({ location: 'cam' }), true],
    ['its location holds it as a word', event({ location: 'Room 4 (cam)' }), true],
    ['its subject names it, in any case', event({ subject: 'Record CAM please' }), true],
    ['a category record:<stream>', event({ graph: { categories: ['Blue', 'record:cam'] } }), true],
    ['a longer name is another camera', event({ location: 'cam-2' }), false],
    ['a word that only starts with it', event({ subject: 'camera check' }), false],
    ['nothing names it', event({}), false],
  ])('%s', (_what, value, expected) => {
    expect(namesCamera(value, 'cam')).toBe(expected);
  });

  it('leaves cancelled meetings out and puts the rest on the timeline in ms', () => {
    const meetings = meetingsOf([event({ location: 'cam' }), event({ id: 'e2', isCancelled: true })], 'cam');
    expect(meetings).toEqual([
      {
        event: expect.objectContaining({ id: 'e1' }),
        startMs: Date.UTC(2026, 10, 27, 8),
        endMs: Date.UTC(2026, 10, 27, 9),
        ofThisCamera: true,
      },
    ]);
  });
});
