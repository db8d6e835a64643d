import { SECTIONS } from '../../app/sections';
import { UpcomingSection } from '../../app/UpcomingSection';

export function ConfigView() {
  return <UpcomingSection section={SECTIONS.config} />;
}
