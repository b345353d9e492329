import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const bootScript = readFileSync(path.join(import.meta.dirname, '../../public/boot.js'), 'utf8');

/** A page as the server sends it with a visitor's screen: the app's script and preloads parked (decision 118). */
function parkedPage(screen: string, pathName: string) {
  window.history.replaceState(null, '', pathName);
  document.head.innerHTML =
    '<script type="olympe/after-first-paint" crossorigin src="/assets/index-a.js"></script>' +
    '<link rel="olympe-after-first-paint" crossorigin href="/assets/react-a.js">' +
    '<link rel="olympe-after-first-paint" crossorigin href="/assets/login-page-a.js">';
  document.body.innerHTML = `<div id="root" data-screen="${screen}"><main>Connexion</main></div>`;
}

/** What the browser would fetch now: the module scripts and the modulepreloads in the page. */
function fetched() {
  return {
    scripts: [...document.querySelectorAll<HTMLScriptElement>('script[type="module"]')].map((s) => s.getAttribute('src')),
    preloads: [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')),
    parked: document.querySelectorAll('[type="olympe/after-first-paint"], [rel="olympe-after-first-paint"]').length,
  };
}

const started = { scripts: ['/assets/index-a.js'], preloads: ['/assets/react-a.js', '/assets/login-page-a.js'], parked: 0 };
const waiting = { scripts: [], preloads: [], parked: 3 };

describe('the app started after the screen is painted (web/public/boot.js, decision 118)', () => {
  // The frames are drawn by the test: a hidden tab draws none.
  let frames: FrameRequestCallback[] = [];
  const drawFrame = () => {
    const callbacks = frames;
    frames = [];
    for (const callback of callbacks) callback(performance.now());
  };
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}')),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    localStorage.clear();
    delete window.olympeEarly;
  });

  it('waits for the first paint of the screen, then puts the script and its preloads back, once', () => {
    parkedPage('/login', '/login');
    new Function(bootScript)();
    expect(fetched()).toEqual(waiting);
    // The frame's callbacks run before it is painted; the task after them, once it is.
    drawFrame();
    expect(fetched()).toEqual(waiting);
    vi.advanceTimersByTime(0);
    expect(fetched()).toEqual(started);
    expect(document.querySelector<HTMLScriptElement>('script[type="module"]')!.crossOrigin).toBe('anonymous');
    // The fallback timer of a hidden tab does not add them a second time.
    vi.advanceTimersByTime(1000);
    expect(fetched()).toEqual(started);
  });

  it('starts the app in a tab that paints nothing (hidden), from its timer', () => {
    parkedPage('/login', '/login');
    new Function(bootScript)();
    vi.advanceTimersByTime(499);
    expect(fetched()).toEqual(waiting);
    vi.advanceTimersByTime(1);
    expect(fetched()).toEqual(started);
  });

  it('starts the app at once where the screen is not shown: a session, or the page opened at another path', () => {
    localStorage.setItem('jwt', 'jeton');
    parkedPage('/login', '/login');
    new Function(bootScript)();
    expect(document.getElementById('root')!.childElementCount).toBe(0);
    expect(fetched()).toEqual(started);

    localStorage.clear();
    parkedPage('/login', '/chapter/c1');
    new Function(bootScript)();
    expect(fetched()).toEqual(started);
  });

  it('leaves a page without parked code as it is', () => {
    window.history.replaceState(null, '', '/profile');
    document.head.innerHTML = '<script type="module" crossorigin src="/assets/index-a.js"></script>';
    document.body.innerHTML = '<div id="root"></div>';
    new Function(bootScript)();
    expect(fetched()).toEqual({ scripts: ['/assets/index-a.js'], preloads: [], parked: 0 });
  });
});
