import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = path.resolve(import.meta.dirname, `output/data-${PORT}`);

/**
 * Journeys that judge the time something takes or lasts on screen (a redraw within 200 ms, a notice seen before it
 * goes, a service worker taking the page, a countdown to the second): never beside another journey.
 */
const TIME_BOUND = [
  'clock.spec.ts',
  'map-view.spec.ts',
  'offline.spec.ts',
  'online.spec.ts',
  'profile.spec.ts',
  'scan-upload.spec.ts',
  'test-end.spec.ts',
].map((file) => `**/${file}`);
const desktopChromium = { ...devices['Desktop Chrome'], channel: undefined };

/** Journeys in Debian's Chromium against the built app on a fresh data dir (never a downloaded browser). */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: `output/results-${PORT}`,
  // Two spec files at a time, except the time-bound journeys: they run after all the others, one at a time, alone
  // on the machine (decision 126). On two workers they flaked (decisions 80 and 124): the map's moves never came
  // less than 180 ms apart, the service worker took 15 s to take the page, a notice was gone before it was seen.
  // The tests of a file run in order either way; E2E_WORKERS=1 runs every file one after the other.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
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
  projects: [
    { name: 'journeys', testIgnore: TIME_BOUND, use: desktopChromium },
    // Its own project so that it waits for the others (`dependencies`): a failure there skips these, and the run is red.
    { name: 'time-bound', testMatch: TIME_BOUND, dependencies: ['journeys'], workers: 1, use: desktopChromium },
  ],
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
