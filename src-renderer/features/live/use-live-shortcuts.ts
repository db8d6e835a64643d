import { useEffect, useRef } from 'react';
import { shortcutFor, type ShortcutAction } from './model/shortcuts';

const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Runs the live view's keyboard shortcuts while the view is shown. */
export function useLiveShortcuts(run: (action: ShortcutAction) => void): void {
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A dialog (the shortcuts overlay, a menu) owns the keyboard while open.
      if (document.querySelector('[role="dialog"], [role="menu"]')) return;
      const action = shortcutFor({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        targetIsEditable: isEditable(event.target),
      });
      if (!action) return;
      event.preventDefault();
      latest.current(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
