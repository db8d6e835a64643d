import type { RecordingStatus } from '@shared/contract/recordings';

export type StatusTone = 'ok' | 'idle' | 'warn' | 'error';

/** A recording's state for the console: a short label, its tone, and the details in words. */
export interface StatusText {
  label: string;
  tone: StatusTone;
  details: string[];
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What the status of one recording says, in words: state, next change, uploads that fail, the spool. */
export function statusText(status: RecordingStatus, formatTime: (ms: number) => string): StatusText {
  const details: string[] = [];
  const base = ((): Omit<StatusText, 'details'> => {
    switch (status.state) {
      case 'recording':
        return { label: 'Recording', tone: 'ok' };
      case 'off':
        return { label: 'Idle: outside the schedule', tone: 'idle' };
      case 'waiting':
        return { label: 'Waiting for the stream', tone: 'warn' };
      case 'inactive':
        return { label: 'Not running', tone: 'idle' };
      case 'error':
        return { label: 'Error', tone: 'error' };
    }
  })();
  if (status.message) details.push(status.message);
  if (status.nextChangeMs !== undefined)
    details.push(`${status.state === 'recording' ? 'Stops' : 'Starts'} at ${formatTime(status.nextChangeMs)}.`);
  let tone = base.tone;
  if (status.uploadError) {
    tone = 'error';
    const since = status.failingSinceMs !== undefined ? ` since ${formatTime(status.failingSinceMs)}` : '';
    details.push(`Uploads failing${since}: ${status.uploadError}`);
  }
  if (status.spooled > 0) details.push(`${plural(status.spooled, 'segment')} waiting in the local spool.`);
  if (status.dropped > 0) {
    tone = 'error';
    details.push(`${plural(status.dropped, 'segment')} dropped from a full spool.`);
  }
  return { label: base.label, tone, details };
}
