import type { CalendarEvent, CalendarSyncStatus } from '@shared/contract/directory';
import { capability } from '../../engine/engine-context';

/**
 * What the directory module lends the engine's other modules (recordings): the local copy of the
 * synced calendar view, read in process, and word of each finished delta round, so a reader
 * follows a moved or cancelled meeting within one round instead of polling the copy.
 */
export interface DirectoryCalendar {
  /**
   * Starts the sync of the signed-in user's default view when it is stopped (rounds every
   * `intervalSeconds`); a sync already running keeps its own view and interval.
   */
  ensureRunning(intervalSeconds: number): Promise<CalendarSyncStatus>;
  status(): CalendarSyncStatus;
  /** Events of the copy overlapping [startMs, endMs), by start time; none before the first start. */
  eventsInRange(startMs: number, endMs: number): CalendarEvent[];
  /** Called after every round (completed or failed) and after the copy changed connection; returns the unsubscribe function. */
  onRound(listener: () => void): () => void;
}

export const directoryCalendar = capability<DirectoryCalendar>('directory.calendar');
