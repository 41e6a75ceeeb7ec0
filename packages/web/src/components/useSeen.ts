import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Whether an element has come within `margin` px of the viewport, once: rows below the fold start
 * their work when they are scrolled to. An element in view when it mounts is seen at once (measured
 * before the first paint, not a frame later when an observer would say so); the others are watched
 * by an IntersectionObserver until they come near. True at once where the browser has none.
 */
export function useSeen(ref: RefObject<Element | null>, margin = 100): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect();
    if (box && box.top < innerHeight + margin && box.bottom > -margin) setSeen(true);
    // Measured once, when the element mounts; the observer follows it from then on.
  }, [ref, margin]);
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
      { rootMargin: `${margin}px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, seen, margin]);
  return seen;
}
