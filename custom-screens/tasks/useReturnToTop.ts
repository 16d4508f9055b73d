import { useCallback, useEffect, useRef, useState } from 'react';
import { scrollToPageTop } from './scrollToPageTop';

/**
 * A view that replaces a long form (a submitted questionnaire) starts at its top: `returnToTop()`
 * scrolls the page to the top and moves focus to the element `ref` is on (give it tabIndex -1),
 * so keyboard and screen-reader users are told where they are instead of being left on a button
 * that is gone. It happens after the next render, once the new view is on the page.
 */
export function useReturnToTop<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    const target = ref.current;
    if (requests === 0 || !target) return;
    scrollToPageTop(target);
    target.focus({ preventScroll: true });
  }, [requests]);
  const returnToTop = useCallback(() => setRequests((count) => count + 1), []);
  return { ref, returnToTop };
}
