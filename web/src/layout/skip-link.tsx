import type { MouseEvent } from 'react';
import classes from './skip-link.module.css';

/** Where the skip link goes: the app shell's <main>. */
export const MAIN_CONTENT_ID = 'contenu';

/**
 * « Aller au contenu », the first stop of the Tab key (RGAA 12.7): a keyboard or screen-reader user
 * passes the header and the long sidebar in one key.
 */
export function SkipLink() {
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    // Focus moves for real (the next Tab goes on from the page), and the URL keeps no « #contenu ».
    event.preventDefault();
    main.focus();
    main.scrollIntoView?.();
  }
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink} onClick={skip}>
      Aller au contenu
    </a>
  );
}
