import { useElementSize } from '@mantine/hooks';
import type { KeyboardEvent, MouseEvent } from 'react';
import type { CalendarEvent } from '@shared/contract/directory';
import { clockOf } from '../model/day';
import { gapsOf, layout, neighbourSpan, timeAtX, xOfTime, type Span } from '../model/timeline';

export interface Meeting extends Span {
  event: CalendarEvent;
  /** The meeting names this camera (its location, subject or a `record:<stream>` category). */
  ofThisCamera: boolean;
}

const MINUTE = 60_000;

/** Where keys move the cursor: arrows by a minute (Shift: ten), Home and End, Page Up/Down by span. */
function movedCursor(event: KeyboardEvent, cursorMs: number, view: Span, spans: readonly Span[]): number | undefined {
  const step = event.shiftKey ? 10 * MINUTE : MINUTE;
  switch (event.key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return cursorMs - step;
    case 'ArrowRight':
    case 'ArrowUp':
      return cursorMs + step;
    case 'Home':
      return view.startMs;
    case 'End':
      return view.endMs;
    case 'PageUp':
      return neighbourSpan(spans, cursorMs, -1)?.startMs;
    case 'PageDown':
      return neighbourSpan(spans, cursorMs, 1)?.startMs;
    default:
      return undefined;
  }
}

/** Hour (or minute) marks under the timeline: about six, on round times. */
function ticksOf(view: Span): number[] {
  const length = view.endMs - view.startMs;
  const step = [MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE, 60 * MINUTE, 180 * MINUTE, 240 * MINUTE].find(
    (s) => length / s <= 8,
  )!;
  const ticks: number[] = [];
  // Round in local time: the first mark after the window's start on a multiple of the step.
  const offset = new Date(view.startMs).getTimezoneOffset() * MINUTE;
  for (let t = Math.ceil((view.startMs - offset) / step) * step + offset; t <= view.endMs; t += step) ticks.push(t);
  return ticks;
}

/**
 * A day (or a zoomed part of it) of one camera: the calendar's meetings above, the recorded
 * spans with the gaps between them, the export range and the cursor. Click a point or move the
 * cursor with the keys, Enter to play from there.
 */
export function DayTimeline({
  view,
  spans,
  meetings,
  cursorMs,
  range,
  onCursor,
  onPlay,
}: {
  view: Span;
  spans: readonly Span[];
  meetings: readonly Meeting[] | undefined;
  cursorMs: number;
  range: Span | undefined;
  onCursor(ms: number): void;
  onPlay(ms: number): void;
}) {
  const { ref, width } = useElementSize();
  const recorded = spans.some((span) => span.startMs <= cursorMs && cursorMs < span.endMs);
  const clamp = (ms: number) => Math.min(view.endMs, Math.max(view.startMs, ms));

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const ms = timeAtX(event.clientX - box.left, view, box.width);
    onCursor(ms);
    onPlay(ms);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onPlay(cursorMs);
      return;
    }
    const moved = movedCursor(event, cursorMs, view, spans);
    if (moved === undefined) return;
    event.preventDefault();
    onCursor(clamp(moved));
  };

  return (
    <div className="rec-timeline">
      {meetings ? (
        <ul className="rec-meetings" aria-label="Meetings of the synced calendar">
          {layout(meetings, view, width).map(({ item, left, width: w }) => (
            <li
              key={item.event.id}
              className={item.ofThisCamera ? 'rec-meeting rec-meeting-camera' : 'rec-meeting'}
              style={{ left, width: w }}
              title={`${item.event.subject ?? '(no subject)'} · ${clockOf(item.startMs)}–${clockOf(item.endMs)}`}
            >
              <span className="rec-meeting-text">{item.event.subject ?? '(no subject)'}</span>
              <span className="visually-hidden">
                {` ${clockOf(item.startMs)} to ${clockOf(item.endMs)}${item.ofThisCamera ? ', names this camera' : ''}`}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <div
        ref={ref}
        className="rec-track"
        role="slider"
        tabIndex={0}
        aria-label="Timeline: Enter plays from the cursor"
        aria-valuemin={view.startMs}
        aria-valuemax={view.endMs}
        aria-valuenow={cursorMs}
        aria-valuetext={`${clockOf(cursorMs)}, ${recorded ? 'recorded' : 'not recorded'}`}
        aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight Home End PageUp PageDown Enter"
        data-testid="recording-timeline"
        onClick={onClick}
        onKeyDown={onKeyDown}
      >
        {layout(gapsOf(spans, view), view, width).map(({ item, left, width: w }) => (
          <div key={`gap-${item.startMs}`} className="rec-gap" style={{ left, width: w }} />
        ))}
        {layout(spans, view, width).map(({ item, left, width: w }) => (
          <div
            key={item.startMs}
            className="rec-span"
            style={{ left, width: w }}
            data-testid="recorded-span"
            title={`Recorded ${clockOf(item.startMs)}–${clockOf(item.endMs)}`}
          />
        ))}
        {range
          ? layout([range], view, width).map(({ left, width: w }) => (
              <div key="range" className="rec-range" style={{ left, width: w }} data-testid="export-range" />
            ))
          : null}
        {cursorMs >= view.startMs && cursorMs <= view.endMs ? (
          <div className="rec-cursor" style={{ left: xOfTime(cursorMs, view, width) }} data-testid="timeline-cursor" />
        ) : null}
      </div>
      <div className="rec-ticks" aria-hidden="true">
        {ticksOf(view).map((t) => (
          <span key={t} style={{ left: xOfTime(t, view, width) }}>
            {clockOf(t).slice(0, 5)}
          </span>
        ))}
      </div>
    </div>
  );
}
