import { useEffect, useState } from 'react';

/** True while the element is within `rootMargin` of the viewport (at least `threshold` of it). */
function useInView(element: Element | null, rootMargin: string, threshold: number): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    if (!element) return;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), { rootMargin, threshold });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, rootMargin, threshold]);
  return inView;
}

/** True while the element is on screen and the page is not hidden: players run only then. */
export function useVisible(element: Element | null): boolean {
  const inView = useInView(element, '0px', 0.05);
  const [pageShown, setPageShown] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const onChange = () => setPageShown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return inView && pageShown;
}

/**
 * True while the element is on screen or within half a screen of it: only such tiles hold a
 * player and their controls. With hundreds of streams known, the others are bare frames, so the
 * grid mounts and lays out what can be seen, not every stream of every relay.
 */
export const useNearView = (element: Element | null): boolean => useInView(element, '50% 0px', 0);
