import { SECTIONS } from '../../app/sections';
import { UpcomingSection } from '../../app/UpcomingSection';

export function LiveView() {
  return <UpcomingSection section={SECTIONS.live} />;
}
