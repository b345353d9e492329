import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Mounts `children` once their place comes within `margin` of the viewport (decision 117); until then an empty
 * box of `minHeight` holds it. For what sits below the first screen and costs to draw (the profile's centre
 * panels): the page shows and answers first. Without IntersectionObserver, at once.
 */
export function WhenNear({ children, minHeight, margin = '400px' }: { children: ReactNode; minHeight: number; margin?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !box.current) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(box.current);
    return () => observer.disconnect();
  }, [near, margin]);
  return near ? <>{children}</> : <div ref={box} style={{ minHeight }} />;
}
