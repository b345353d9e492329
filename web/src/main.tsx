import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
// The theme's CSS variables, written at build rather than computed at each start (decision 123).
import 'virtual:olympe-theme-variables.css';
import './accessibility.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { registerServiceWorker } from './offline/service-worker';
import { readToken } from './session/token';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// Decision 117: the page may carry a visitor's screen, rendered by the server (web/src/prerender.tsx). The app
// takes it over where it is the screen of this path for a visitor; anywhere else (the service worker's copy
// opened at another path, a session the server did not know of) it is dropped and the app draws its own.
// Either way the first render is a transition: React then yields to the browser every few milliseconds instead
// of holding the main thread for the whole render (a phone's tap or keystroke is answered meanwhile; decision 118).
startTransition(() => {
  if (root.dataset.screen === location.pathname && readToken() === null) {
    hydrateRoot(root, app);
  } else {
    // The signed-in browser's frame (decision 120) stays until React's first commit clears the root and puts the
    // same frame in its place: no empty page in between. A visitor's screen is dropped at once.
    if (root.dataset.shell === undefined) root.replaceChildren();
    createRoot(root).render(app);
  }
});

if (import.meta.env.PROD && 'serviceWorker' in navigator) registerServiceWorker();
