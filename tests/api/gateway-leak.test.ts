/**
 * Leak test: every note of ../shared/eval/phi/dev.jsonl goes through the gateway (with the official openai client)
 * as a user message AND as a JSON tool result; for every third note its first name and identifier also go into a
 * `stop` string and a tool's description and parameter schema. Whatever the test upstream received must contain no
 * gold PHI string and none of its digits-only forms (score.py's redacted-text leak rules, via scoreCorpus), and the
 * answers must come back with every original restored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { addModel } from '@/server/gateway/registry';
import { sharedDir } from '@/server/config/paths';
import { loadGold } from '@/eval/redact/evaluation';
import { runGatewayLeak } from '@/eval/redact/gateway-leak';

const DEV = path.join(sharedDir(), 'eval', 'phi', 'dev.jsonl');

let be: TestBackend;
let up: TestUpstream;
let org: TestOrg;
let client: OpenAI;

beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream({ maxRecorded: 100_000 });
  org = await createTestOrg(be.db, { scopes: ['llm:chat'] });
  for (const [name, upstream] of [
    ['leak-echo-all', 'echo-all'],
    ['leak-tool-call', 'tool-call'],
  ] as const) {
    await addModel(
      be.db,
      { name, base_url: up.baseUrl, upstream_model: upstream, approved_for_phi: true, timeout_ms: 60_000 },
      { orgId: org.orgId, actor: 'test' },
    );
  }
  client = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: org.key, maxRetries: 0, timeout: 120_000 });
});

afterAll(async () => {
  await up?.close();
  await be?.close();
});

describe(`gateway PHI leak test on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('no gold PHI string (or digits-only form) of the dev corpus reaches the upstream; every original comes back', { timeout: 600_000 }, async () => {
    expect(fs.existsSync(DEV), `${DEV} (the shared dev corpus) must exist`).toBe(true);
    const gold = loadGold(DEV);
    expect(gold.length).toBe(300);
    const r = await runGatewayLeak(client, up, gold, { echoModel: 'leak-echo-all', toolModel: 'leak-tool-call' });
    expect(r.requests).toBe(gold.length * 2);
    expect(r.withExtras).toBeGreaterThanOrEqual(90);
    expect(r.incomplete).toBe(0);
    expect(r.mismatches).toEqual([]);
    expect(r.leaks, r.leakExamples.join('\n')).toBe(0);
    expect(r.rawHits).toBe(0);
    console.log(
      `leak test: ${r.notes} notes x 2 requests (user + tool; ${r.withExtras} notes also in stop + tool schema), ${r.stringsChecked} upstream strings checked, leaks ${r.leaks}, ${r.seconds.toFixed(1)} s`,
    );
  });
});
