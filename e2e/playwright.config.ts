import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = path.resolve(import.meta.dirname, `output/data-${PORT}`);

/** Journeys in Debian's Chromium against the built app on a fresh data dir (never a downloaded browser). */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: `output/results-${PORT}`,
  // One spec file at a time by default: two workers (E2E_WORKERS=2, 7 minutes instead of ~12) passed whole runs,
  // but the time-bound journeys (the map's 200 ms redraw, the offline service worker) flaked in one of them
  // (decision 80). The tests of a file run in order either way.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'output/report' }]],
  use: {
    // An action or a wait for an event that never ends fails by itself, naming its step, instead of
    // running out the test's whole time (a journey that timed out in CI said only where it was cleaning up).
    actionTimeout: 45_000,
    navigationTimeout: 45_000,
    baseURL: `http://localhost:${PORT}`,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    screenshot: 'only-on-failure',
    // The app's service worker (offline reload) is let in only by the journey that tests it, so
    // page.route sees every request elsewhere.
    serviceWorkers: 'block',
    // A failure keeps its trace (actions, DOM snapshots, network) and its screenshot, not a film of every frame:
    // the screencast of every journey kept the browser's compositor busy (screens and double grading took 98 s
    // with it, 75 s without, decision 124).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: `rm -rf "${E2E_DATA_DIR}" && node --import tsx ../server/src/main.ts`,
    cwd: import.meta.dirname,
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_DATA_DIR,
      PUBLIC_URL: `http://localhost:${PORT}`,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@e2e.test',
      // A build of one's own (relative to the repository root), so parallel runs do not share web/dist.
      ...(process.env.WEB_DIST ? { WEB_DIST: path.resolve(import.meta.dirname, '..', process.env.WEB_DIST) } : {}),
    },
  },
});
