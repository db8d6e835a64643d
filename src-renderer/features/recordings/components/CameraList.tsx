import { Badge } from '@mantine/core';
import type { RecordingStatus } from '@shared/contract/recordings';
import { printRoute } from '../../../app/routes';
import { clockOf } from '../model/day';
import { statusText, type StatusTone } from '../model/status-text';

export const TONE_COLOR: Record<StatusTone, string> = { ok: 'green', idle: 'gray', warn: 'yellow', error: 'red' };

/** The recorded cameras, each with its state; the chosen one is the page's. */
export function CameraList({ statuses, current, day }: { statuses: readonly RecordingStatus[]; current?: string; day?: string }) {
  return (
    <nav aria-label="Recorded cameras" className="rec-cameras">
      <ul>
        {statuses.map((status) => {
          const text = statusText(status, clockOf);
          return (
            <li key={status.stream}>
              <a
                href={printRoute({ section: 'recordings', stream: status.stream, ...(day ? { day } : {}) })}
                aria-current={status.stream === current ? 'page' : undefined}
              >
                <span className="rec-camera-name">{status.stream}</span>
                <Badge size="sm" variant="dot" color={TONE_COLOR[text.tone]}>
                  {text.label}
                </Badge>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
