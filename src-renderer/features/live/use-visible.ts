import { useEffect, useState } from 'react';

/** True while the element is on screen and the page is not hidden: players run only then. */
export function useVisible(element: Element | null): boolean {
  const [inView, setInView] = useState(false);
  const [pageShown, setPageShown] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    if (!element) return;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), { threshold: 0.05 });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  useEffect(() => {
    const onChange = () => setPageShown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return inView && pageShown;
}
