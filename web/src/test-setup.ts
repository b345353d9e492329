import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// CI runs on two cores with every test file at once: a lazily loaded chunk (KaTeX) can take more than
// Testing Library's default second to arrive. Waiting longer changes nothing when the thing shows up.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks the browser APIs Mantine reads on mount (see Mantine's testing guide).
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom has no FontFaceSet: Mantine's autosize Textarea reads document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { ready: Promise.resolve(), addEventListener() {}, removeEventListener() {} },
  });
}
