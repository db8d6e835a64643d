import { PageHeader } from '../ui/PageHeader';
import type { SectionInfo } from './sections';

/** A section whose feature has not landed yet says so plainly instead of showing fake data. */
export function UpcomingSection({ section }: { section: SectionInfo }) {
  return (
    <section aria-labelledby={`${section.id}-title`} data-testid={`section-${section.id}`}>
      <PageHeader title={section.title} summary={section.summary} />
      <div className="panel empty-state">
        <p>This part of the console is not available in this version yet.</p>
      </div>
    </section>
  );
}
