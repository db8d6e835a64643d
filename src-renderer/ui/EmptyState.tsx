import type { ReactNode } from 'react';

/**
 * What a list or a page shows when it holds nothing: what that means and what to do next, in
 * words, never a blank area. Quiet text, not an alert: nothing went wrong.
 */
export function EmptyState({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="panel empty-state" data-testid={testId}>
      <p>{children}</p>
    </div>
  );
}
