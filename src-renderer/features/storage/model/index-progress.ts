import type { IndexStatus } from '@shared/contract/storage';
import { formatBytes } from '@renderer/ui/format';

const count = (n: number) => n.toLocaleString('en-US');

/** What the index bar says of a folder, and how full its progress bar is (0-100, or undefined when there is none). */
export function describeIndex(status: IndexStatus | undefined): { text: string; percent?: number } {
  if (!status || status.state === 'none') return { text: 'Not counted yet: count to sort by size, time or type and see totals' };
  const files = `${count(status.listed)} ${status.listed === 1 ? 'file' : 'files'}`;
  switch (status.state) {
    case 'complete':
      return { text: `${files} · ${formatBytes(status.bytes)} including sub-folders` };
    case 'running': {
      const estimate = Math.max(status.estimate, status.listed);
      return {
        text: `Indexed ${count(status.listed)} of about ${count(estimate)} · ${formatBytes(status.bytes)} so far`,
        percent: estimate > 0 ? Math.min(99, (status.listed / estimate) * 100) : 0,
      };
    }
    case 'failed':
      return {
        text: `Stopped at ${count(status.listed)} of about ${count(Math.max(status.estimate, status.listed))}: ${status.error ?? 'the listing failed'}`,
      };
  }
}
