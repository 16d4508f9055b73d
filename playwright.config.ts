import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromiumLaunch';
import { doseSpotOrigin } from './tests/e2e/doseSpotTestClinic';
import { serverStartCommand } from './config/serverNodeFlags';

const port = Number(process.env.E2E_PORT ?? 8199);
// A fresh database for every run: the app is seeded with the demo clinic on first start.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
// Workers inherit the runner's environment: tests find the server's DATA_DIR (e-mail outbox) here.
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/playwright',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  // The local DoseSpot test server the shipped DoseSpot bots call (tests/e2e/eprescribing.spec.ts).
  globalSetup: './tests/e2e/doseSpotGlobalSetup.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    // The browser asks for reduced motion, which the app honours (src/shell/themes.ts): menus open
    // in place. A click that lands while a menu is still growing can press one option and release
    // over another, so no option is chosen (a consoleSearch run timed out that way, 1 in 7 locally).
    // shell.spec.ts checks the animated path too.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    // npm start's own command line (its environment and node flags; run through a shell).
    command: serverStartCommand('scripts/start.mjs'),
    url: `http://127.0.0.1:${port}/healthcheck`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}/`,
      DATA_DIR: dataDir,
      SEED: 'demo',
      ADMIN_PASSWORD: 'e2e-admin-password',
      DEMO_PASSWORD: 'e2e-demo-password',
      // The bots may reach the DoseSpot test server on loopback, and the chart may frame its SSO page.
      BOT_FETCH_ALLOWED_HOSTS: doseSpotOrigin.replace('http://', ''),
      APP_FRAME_ORIGINS: doseSpotOrigin,
      ...(process.env.WEB_ROOT ? { WEB_ROOT: process.env.WEB_ROOT } : {}),
    },
  },
});
