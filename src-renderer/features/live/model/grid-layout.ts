import type { LiveLayout } from '@shared/contract/preferences';

export const LAYOUT_LABEL: Record<LiveLayout, string> = { '1': '1', '2x2': '2×2', '3x3': '3×3', '4x4': '4×4', auto: 'Auto' };

/** CSS columns of the grid: a fixed count for the square layouts, as many 320 px tiles as fit for auto. */
export function gridColumns(layout: LiveLayout): string {
  switch (layout) {
    case '1':
      return 'minmax(0, 1fr)';
    case '2x2':
      return 'repeat(2, minmax(0, 1fr))';
    case '3x3':
      return 'repeat(3, minmax(0, 1fr))';
    case '4x4':
      return 'repeat(4, minmax(0, 1fr))';
    case 'auto':
      return 'repeat(auto-fill, minmax(360px, 1fr))';
  }
}
