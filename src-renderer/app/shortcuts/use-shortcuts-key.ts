import { useEffect, useRef } from 'react';
import { isTyping } from '../../ui/keyboard/is-typing';
import { opensShortcuts } from './registry';

/** Opens the shortcuts dialog on `?` from anywhere in the console (not while typing, nor over a dialog). */
export function useShortcutsKey(open: () => void, enabled: boolean): void {
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    if (!enabled) return undefined;
    const onKey = (event: KeyboardEvent) => {
      const press = {
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        typing: isTyping(event.target),
        dialogOpen: document.querySelector('[role="dialog"], [role="menu"]') !== null,
      };
      if (!opensShortcuts(press)) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
