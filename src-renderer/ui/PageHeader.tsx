import type { ReactNode } from 'react';

/** A section's title and one-line summary; `titleId` names the section for `aria-labelledby`. */
export function PageHeader({
  title,
  summary,
  actions,
  titleId,
}: {
  title: string;
  summary: string;
  actions?: ReactNode;
  titleId?: string;
}) {
  return (
    <header className="page-header">
      <div>
        <h1 id={titleId}>{title}</h1>
        <p className="muted">{summary}</p>
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}
