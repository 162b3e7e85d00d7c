import { defineConfig } from '@playwright/test';

/**
 * E2E in Debian's Chromium (/usr/bin/chromium; Playwright's own browsers cannot be downloaded here).
 * The web server runs `npm start`'s code on a fresh embedded database with a known demo password.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const STATE = process.env.E2E_STATE_DIR ?? '.data/e2e';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: `rm -rf ${STATE} && tsx scripts/start.ts`,
    url: `http://127.0.0.1:${PORT}/api/v1/health/`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      CODING_STATE_DIR: STATE,
      PGLITE_DIR: `${STATE}/pglite`,
      DEMO_ADMIN_PASSWORD: 'e2e-demo-password',
      LOG_LEVEL: 'warn',
      ...(process.env.CODING_DATA_DIR ? { CODING_DATA_DIR: process.env.CODING_DATA_DIR } : {}),
    },
  },
});
