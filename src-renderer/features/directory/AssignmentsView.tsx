import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { assignmentColumns, assignmentStates, type AssignmentFilter } from '@shared/contract/directory';
import { EmptyState } from '../../ui/EmptyState';
import { QueryState } from '../../ui/QueryState';
import { AssignmentDetails } from './components/AssignmentDetails';
import { AssignmentTable } from './components/AssignmentTable';
import { ColumnChooser } from './components/ColumnChooser';
import { UserFilter } from './components/UserFilter';
import { ASSIGNMENT_STATE_LABELS, pageRangeText } from './model/assignment-cells';
import { useAssignmentColumns, useAssignmentPage, usePackages } from './use-directory';

const PAGE_SIZES = ['25', '50', '100'];

/** `#/directory/assignments[/<id>]`: a filtered, paged list of assignments; one opens in a panel. */
export function AssignmentsView({ assignmentId }: { assignmentId: string | undefined }) {
  const [filter, setFilter] = useState<AssignmentFilter>({});
  const [pageSize, setPageSize] = useState(50);
  // The next links of the pages seen so far: pages[i] opens page i (page 0 has none).
  const [pages, setPages] = useState<(string | undefined)[]>([undefined]);
  const [pageIndex, setPageIndex] = useState(0);
  const { columns: chosen, save: saveColumns } = useAssignmentColumns();
  const columns = chosen ?? [...assignmentColumns];
  const page = useAssignmentPage(filter, columns, pages[pageIndex], pageSize);
  const packages = usePackages();

  const restart = (next: Partial<AssignmentFilter> | null, size = pageSize) => {
    if (next) setFilter((old) => Object.fromEntries(Object.entries({ ...old, ...next }).filter(([, v]) => v)) as AssignmentFilter);
    setPageSize(size);
    setPages([undefined]);
    setPageIndex(0);
  };
  const goNext = () => {
    const next = page.data?.next;
    if (!next) return;
    setPages((old) => [...old.slice(0, pageIndex + 1), next]);
    setPageIndex(pageIndex + 1);
  };
  const policies = (packages.data ?? [])
    .filter((p) => !filter.accessPackageId || p.id === filter.accessPackageId)
    .flatMap((p) => p.assignmentPolicies);

  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm" role="search" aria-label="Filter assignments">
        <Select
          label="State"
          placeholder="Any state"
          data={assignmentStates.map((value) => ({ value, label: ASSIGNMENT_STATE_LABELS[value] ?? value }))}
          value={filter.state ?? null}
          onChange={(value) => restart({ state: (value ?? undefined) as AssignmentFilter['state'] })}
          clearable
          w={180}
        />
        <Select
          label="Access package"
          placeholder="Any package"
          data={(packages.data ?? []).map((p) => ({ value: p.id, label: p.displayName ?? p.id }))}
          value={filter.accessPackageId ?? null}
          onChange={(value) => restart({ accessPackageId: value ?? undefined, policyId: undefined })}
          clearable
          searchable
          w={240}
        />
        <Select
          label="Policy"
          placeholder="Any policy"
          data={policies.map((p) => ({ value: p.id, label: p.displayName ?? p.id }))}
          value={filter.policyId ?? null}
          onChange={(value) => restart({ policyId: value ?? undefined })}
          clearable
          searchable
          w={240}
        />
        <UserFilter value={filter.targetObjectId} onChange={(id) => restart({ targetObjectId: id })} />
        <ColumnChooser columns={columns} onChange={(next) => saveColumns.mutate(next)} />
      </Group>
      <QueryState query={page} loading="Reading assignments…" errorTitle="The assignments could not be read">
        {(shown) => (
          <>
            {shown.items.length > 0 ? (
              <AssignmentTable items={shown.items} columns={columns} selectedId={assignmentId} />
            ) : (
              <EmptyState>
                {Object.keys(filter).length > 0
                  ? 'No assignment matches these filters.'
                  : 'Nobody has been assigned an access package yet.'}
              </EmptyState>
            )}
            <Group justify="space-between">
              <Text size="sm" aria-live="polite" data-testid="assignment-range">
                {pageRangeText(pageIndex, pageSize, shown.items.length, shown.total)}
                {page.isFetching ? ' · loading…' : ''}
              </Text>
              <Group gap="xs">
                <Select
                  aria-label="Assignments per page"
                  data={PAGE_SIZES}
                  value={String(pageSize)}
                  onChange={(value) => restart(null, Number(value ?? 50))}
                  allowDeselect={false}
                  w={90}
                  size="xs"
                />
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconChevronLeft size={14} />}
                  disabled={pageIndex === 0}
                  onClick={() => setPageIndex(pageIndex - 1)}
                >
                  Previous
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  rightSection={<IconChevronRight size={14} />}
                  disabled={!shown.next || page.isPlaceholderData}
                  onClick={goNext}
                >
                  Next
                </Button>
              </Group>
            </Group>
          </>
        )}
      </QueryState>
      <AssignmentDetails assignmentId={assignmentId} />
    </Stack>
  );
}
