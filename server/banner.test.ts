import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bannerText, FIRST_START_FILE } from './banner';
import { nextAuthUrl } from './auth/base-url';

// made up at run time: nothing that looks like a credential is committed
const demo = {
  organization: 'Demo Hospital',
  email: 'admin@demo.local',
  password: `pw-${randomBytes(6).toString('hex')}`,
  apiKey: `test-key-${randomBytes(12).toString('hex')}`,
};

describe('first-start banner', () => {
  it('shows the demo password and API key on an interactive terminal only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-banner-'));
    const tty = bannerText('http://localhost:3000', demo, { interactive: true, stateDir: dir });
    expect(tty.text).toContain(demo.password);
    expect(tty.text).toContain(demo.apiKey);
    expect(tty.credentialsFile).toBeNull();
    expect(fs.existsSync(path.join(dir, FIRST_START_FILE))).toBe(false);
  });

  it('elsewhere (logs) writes them to a 0600 file in the state folder and prints only its path', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-banner-'));
    const logged = bannerText('http://localhost:3000', demo, { interactive: false, stateDir: dir });
    expect(logged.text).not.toContain(demo.password);
    expect(logged.text).not.toContain(demo.apiKey);
    expect(logged.credentialsFile).toBe(path.join(dir, FIRST_START_FILE));
    expect(logged.text).toContain(logged.credentialsFile!);
    const file = fs.readFileSync(logged.credentialsFile!, 'utf8');
    expect(file).toContain(demo.password);
    expect(file).toContain(demo.apiKey);
    expect(fs.statSync(logged.credentialsFile!).mode & 0o777).toBe(0o600);
    // a later start without a demo organisation writes nothing and shows no secret
    const again = bannerText('http://localhost:3000', null, { interactive: false, stateDir: dir });
    expect(again.credentialsFile).toBeNull();
  });
});

describe('next-auth base URL', () => {
  it('comes from PUBLIC_BASE_URL, else the host and port the server listens on, never port 3000 by default', () => {
    expect(nextAuthUrl(undefined, '0.0.0.0', 4321)).toBe('http://localhost:4321');
    expect(nextAuthUrl(undefined, '127.0.0.1', 3210)).toBe('http://127.0.0.1:3210');
    expect(nextAuthUrl(undefined, '::1', 8080)).toBe('http://[::1]:8080');
    expect(nextAuthUrl('https://coding.example.org/', '0.0.0.0', 3000)).toBe('https://coding.example.org');
  });
});
