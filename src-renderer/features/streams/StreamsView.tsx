import { SECTIONS } from '../../app/sections';
import { UpcomingSection } from '../../app/UpcomingSection';
import type { StreamTab } from '../../app/routes';

export function StreamsView(_props: { stream?: string; tab?: StreamTab }) {
  return <UpcomingSection section={SECTIONS.streams} />;
}
