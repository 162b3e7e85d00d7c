import fs from 'node:fs';
import path from 'node:path';
import type { DemoCredentials } from './bootstrap';
import { stateDir } from './secrets';

/** Where the first start writes the demo credentials when nobody is at a terminal to read them. */
export const FIRST_START_FILE = 'first-start-credentials.txt';

/**
 * The start-up banner. The demo organisation's password and API key are secrets: they are shown on an interactive
 * terminal only. Anywhere else (a service manager, a container, CI: stdout ends up in logs) they are written to
 * `<CODING_STATE_DIR>/first-start-credentials.txt` with mode 0600 instead, and the banner prints that path.
 */
export function bannerText(
  url: string,
  demo: DemoCredentials | null,
  opts: { interactive: boolean; stateDir?: string },
): { text: string; credentialsFile: string | null } {
  const lines = ['', `  Coding Gateway is running at ${url}`, `  API reference: ${url}/docs   Health: ${url}/api/v1/health/`];
  let credentialsFile: string | null = null;
  if (demo && opts.interactive) {
    lines.push(
      '',
      '  A demo organisation was created (first start):',
      `    organisation  ${demo.organization}`,
      `    login         ${demo.email}`,
      `    password      ${demo.password}`,
      `    API key       ${demo.apiKey}`,
      '  The key and password are shown only now; store them. Create more keys on the Keys page.',
      '',
      `  Try it:  curl -s -H "X-API-Key: $KEY" ${url}/api/v1/auth/whoami`,
    );
  } else if (demo) {
    credentialsFile = writeCredentialsFile(url, demo, opts.stateDir ?? stateDir());
    lines.push(
      '',
      `  A demo organisation was created (first start): ${demo.organization}, login ${demo.email}.`,
      `  Its password and API key were written to ${credentialsFile} (mode 0600), not to this output,`,
      '  because it is not an interactive terminal. Read them there, store them, and delete the file.',
    );
  }
  lines.push('');
  return { text: lines.join('\n') + '\n', credentialsFile };
}

function writeCredentialsFile(url: string, demo: DemoCredentials, dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, FIRST_START_FILE);
  const body = [
    `Coding Gateway at ${url}: demo organisation created on first start (${new Date().toISOString()}).`,
    `organisation  ${demo.organization}`,
    `login         ${demo.email}`,
    `password      ${demo.password}`,
    `API key       ${demo.apiKey}`,
    'Shown only here. Store them, then delete this file.',
    '',
  ].join('\n');
  fs.writeFileSync(file, body, { mode: 0o600 });
  fs.chmodSync(file, 0o600); // an existing file keeps its mode on write
  return file;
}

export function printBanner(url: string, demo: DemoCredentials | null): void {
  process.stdout.write(bannerText(url, demo, { interactive: process.stdout.isTTY === true }).text);
}
