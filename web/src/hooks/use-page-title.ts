import { useEffect } from 'react';

const APP_NAME = 'Olympe';

/**
 * Names the browser tab after the page (RGAA 8.6): « Correction : Tour 1 — Olympe ». A screen reader
 * reads the title first when a page opens, and a pupil with several tabs tells them apart by it.
 */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} — ${APP_NAME}` : APP_NAME;
    // A page without its own title must not keep the previous page's.
    return () => {
      document.title = APP_NAME;
    };
  }, [title]);
}
