import { useCallback, useEffect, useRef, useState } from 'react';
import { leavesPage } from '../model/leave-guard';

export interface LeaveGuard {
  /** A navigation is waiting for the person's answer. */
  asking: boolean;
  /** Leave as asked; the edits are dropped with the page. */
  discard(): void;
  /** Stay; the edits stay as they are. */
  keepEditing(): void;
  /** The page itself navigates next (after a save or a delete): let it through unasked. */
  allowLeaving(): void;
}

/** The parts of the Navigation API used here (not yet in TypeScript's DOM types). */
interface NavigateEventLike extends Event {
  readonly cancelable: boolean;
  readonly navigationType: 'push' | 'replace' | 'reload' | 'traverse';
  readonly destination: { readonly url: string; readonly key: string | null };
}
interface NavigationLike extends EventTarget {
  traverseTo(key: string): unknown;
  navigate(url: string): unknown;
}

type Pending = { url: string; traverseKey: string | null };

/**
 * While `dirty`, leaving the page asks first, as the admin center does. Every way out of a
 * hash-routed page (a link, a tab, back and forward, an address typed in) is a same-document
 * navigation: where the browser has the Navigation API its `navigate` event is cancelled and
 * replayed after Discard. Elsewhere `popstate`, which comes before the `hashchange` the shell
 * routes by, puts this page's address back, so the shell reads it and stays. Closing or
 * reloading a browser tab gets the browser's own question, the only one a page may ask then.
 */
export function useLeaveGuard(dirty: boolean): LeaveGuard {
  const [pending, setPending] = useState<Pending | null>(null);
  const allowed = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    const here = location.href;
    const leaving = (url: string) => !allowed.current && leavesPage(new URL(here).hash, new URL(url).hash);
    const navigation = (window as { navigation?: NavigationLike }).navigation;
    const onNavigate = (event: Event) => {
      const { cancelable, navigationType, destination } = event as NavigateEventLike;
      if (!cancelable || navigationType === 'reload' || !leaving(destination.url)) return;
      event.preventDefault();
      setPending({ url: destination.url, traverseKey: navigationType === 'traverse' ? destination.key : null });
    };
    // A navigation the Navigation API could not stop (or a browser without it) still lands here.
    const onPopState = () => {
      const asked = location.href;
      if (!leaving(asked)) return;
      history.replaceState(history.state, '', here);
      setPending({ url: asked, traverseKey: null });
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
    };
    navigation?.addEventListener('navigate', onNavigate);
    window.addEventListener('popstate', onPopState);
    // A browser asks the user itself; in the desktop window main asks (will-prevent-unload).
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      navigation?.removeEventListener('navigate', onNavigate);
      window.removeEventListener('popstate', onPopState);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);

  const discard = useCallback(() => {
    if (pending === null) return;
    allowed.current = true;
    setPending(null);
    const navigation = (window as { navigation?: NavigationLike }).navigation;
    if (pending.traverseKey && navigation) navigation.traverseTo(pending.traverseKey);
    else location.href = pending.url;
  }, [pending]);
  const keepEditing = useCallback(() => setPending(null), []);
  const allowLeaving = useCallback(() => {
    allowed.current = true;
  }, []);
  return { asking: pending !== null, discard, keepEditing, allowLeaving };
}
