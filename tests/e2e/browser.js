// browser.js — the headless Debian Chromium that the browser tests (tests/e2e/playwright.config.js) and
// startup.js drive. Switches: no sandbox (containers), software WebGL (SwiftShader; no GPU here), none of the
// browser's own network traffic (updates, sync, QUIC probes), and no omnibox popup WebUI: headless Chromium 156
// loads it — a second renderer, ~1.3 s of CPU — in every new window, so in every fresh context a cold-load test
// opens, side by side with the page under test on a 2-core machine. A visitor's browser loaded it when its window
// opened, not when they followed a link, so the page's own start-up is timed without it. Local Network Access checks
// off: the embed tests host the site (127.0.0.1) in a page of another origin (localhost), which they would block.
import { chromium } from 'playwright-core';

export const chromiumOptions = (extraArgs = []) => ({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions',
    '--enable-unsafe-swiftshader', '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,LocalNetworkAccessChecks', ...extraArgs],
});

export function launchBrowser(extraArgs = []) {
  return chromium.launch(chromiumOptions(extraArgs));
}
