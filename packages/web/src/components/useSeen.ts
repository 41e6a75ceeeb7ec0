import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether an element has come within `margin` of the viewport, once (an IntersectionObserver, then
 * no more watching): rows below the fold start their work when they are scrolled to. True at once
 * where the browser has no IntersectionObserver.
 */
export function useSeen(ref: RefObject<Element | null>, margin = '100px'): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, seen, margin]);
  return seen;
}
