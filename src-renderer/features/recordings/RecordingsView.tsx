import type { RecordingsRoute } from '../../app/routes';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { CameraDay } from './CameraDay';
import { CameraList } from './components/CameraList';
import { RecordingsEmpty } from './components/RecordingsEmpty';
import { dayKeyOf } from './model/day';
import { useRecordingStatus } from './use-recordings';
import './recordings.css';

/** `#/recordings[/<stream>?day=YYYY-MM-DD]`: the recorded cameras; a camera's day to play back and export. */
export function RecordingsView({ route }: { route: RecordingsRoute }) {
  const statuses = useRecordingStatus();
  const day = route.day ?? dayKeyOf(Date.now());
  return (
    <section aria-labelledby="recordings-title" data-testid="section-recordings">
      <PageHeader
        titleId="recordings-title"
        title="Recordings"
        summary="Cameras recorded into buckets: pick one, click its timeline to play a moment back, export a range."
      />
      <QueryState query={statuses} loading="Reading the recordings…" errorTitle="The recordings could not be read">
        {(list) => {
          if (list.length === 0) return <RecordingsEmpty />;
          const current = list.find((s) => s.stream === route.stream);
          return (
            <div className="rec-layout">
              <CameraList statuses={list} current={current?.stream} day={route.day} />
              <div className="rec-main">
                {current ? (
                  <CameraDay key={`${current.stream} ${day}`} status={current} day={day} />
                ) : (
                  <p className="muted">{route.stream ? `${route.stream} is not recorded. ` : ''}Pick a camera to see its recordings.</p>
                )}
              </div>
            </div>
          );
        }}
      </QueryState>
    </section>
  );
}
