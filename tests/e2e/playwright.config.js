// playwright.config.js — the browser tests (@playwright/test) on Debian's Chromium (browser.js), one spec file per
// concern in specs/. `node scripts/test.js` runs them as the last suite of npm test; alone:
//   npx playwright test -c tests/e2e/playwright.config.js [specs/isolation.spec.js] [-g "runaway"]
//   PT2E_DIST=build/wasm-h5/dist npx playwright test -c tests/e2e/playwright.config.js   (the page uses that build)
// global_setup.js starts the site's own server (scripts/serve.js) on a free port; fixtures.js gives each test a
// page that routes the fixture lesson M99 in and fails the test on a console error, a page error, a
// Content-Security-Policy violation or a request to any other origin. One worker: the machine has two cores, and
// the start-up timing wants them. Screenshots go to tests/e2e/out/.
import { defineConfig } from '@playwright/test';
import { chromiumOptions } from './browser.js';

export default defineConfig({
  testDir: './specs',
  outputDir: './out/results',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [['./count_reporter.js']],
  globalSetup: './global_setup.js',
  use: {
    browserName: 'chromium',
    launchOptions: chromiumOptions(),
    viewport: { width: 1100, height: 760 },
    actionTimeout: 15_000,
  },
});
