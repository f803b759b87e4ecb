import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element is on screen or about to be (within `margin` of the viewport), and stays
 * true once it was: a thumbnail downloads when it is about to be seen, not because its list holds
 * it (a day of 500 photos made 500 requests at once). Without IntersectionObserver: at once.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '200px'): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, near, margin]);
  return near;
}
