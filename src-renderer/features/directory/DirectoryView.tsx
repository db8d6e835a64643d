import { Tabs } from '@mantine/core';
import type { DirectoryRoute } from '../../app/routes';
import { printRoute } from '../../app/routes';
import { PageHeader } from '../../ui/PageHeader';
import { AssignmentsView } from './AssignmentsView';
import { PackagesView } from './PackagesView';
import { PolicyEditorView } from './policy-editor/PolicyEditorView';
import { TrafficView } from './TrafficView';
import { UnitsView } from './UnitsView';

const PAGES = [
  { value: 'packages', label: 'Access packages', route: { section: 'directory', view: 'packages' } },
  { value: 'assignments', label: 'Assignments', route: { section: 'directory', view: 'assignments' } },
  { value: 'units', label: 'Administrative units', route: { section: 'directory', view: 'units' } },
  { value: 'traffic', label: 'Graph traffic', route: { section: 'directory', view: 'traffic' } },
] as const satisfies ReadonlyArray<{ value: string; label: string; route: DirectoryRoute }>;

const pageOf = (route: DirectoryRoute) => (route.view === 'policy' || route.view === 'newPolicy' ? 'packages' : route.view);

/** `#/directory/...`: access packages and their policies, assignments, administrative units, Graph traffic. */
export function DirectoryView({ route }: { route: DirectoryRoute }) {
  return (
    <section aria-labelledby="directory-title" data-testid="section-directory">
      <PageHeader
        titleId="directory-title"
        title="Directory"
        summary="Access packages and their assignment policies, assignments, scoped role members, and what went over the wire to Graph."
      />
      <Tabs value={pageOf(route)} onChange={(value) => (location.hash = printRoute(PAGES.find((p) => p.value === value)!.route))} mb="md">
        <Tabs.List aria-label="Directory pages">
          {PAGES.map((page) => (
            <Tabs.Tab key={page.value} value={page.value}>
              {page.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <DirectoryPage route={route} />
    </section>
  );
}

function DirectoryPage({ route }: { route: DirectoryRoute }) {
  switch (route.view) {
    case 'packages':
      return <PackagesView packageId={route.packageId} />;
    case 'policy':
      return <PolicyEditorView key={route.policyId} mode={{ kind: 'edit', policyId: route.policyId }} />;
    case 'newPolicy':
      return (
        <PolicyEditorView
          key={`${route.packageId}/${route.copyOf ?? ''}`}
          mode={{ kind: 'new', packageId: route.packageId, copyOf: route.copyOf }}
        />
      );
    case 'assignments':
      return <AssignmentsView assignmentId={route.assignmentId} />;
    case 'units':
      return <UnitsView unitId={route.unitId} />;
    case 'traffic':
      return <TrafficView />;
  }
}
