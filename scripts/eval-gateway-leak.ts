/**
 * `npx tsx scripts/eval-gateway-leak.ts GOLD.jsonl [GOLD2.jsonl ...]`: sends every note of each gold corpus through
 * the chat gateway with the official openai client (user message, JSON tool result, and for every third note stop
 * strings and a tool schema), against the test upstream, on a throwaway PGlite database; prints how many gold PHI
 * strings reached the upstream (score.py's leak rules) and whether every answer came back restored.
 */
import OpenAI from 'openai';
import { createTestOrg, startBackend } from '../tests/helpers/backend';
import { startTestUpstream } from '../tests/fixtures/test-upstream';
import { addModel } from '../server/gateway/registry';
import { loadGold } from '../eval/redact/evaluation';
import { runGatewayLeak } from '../eval/redact/gateway-leak';

const files = process.argv.slice(2);
if (!files.length) {
  process.stderr.write('usage: npx tsx scripts/eval-gateway-leak.ts GOLD.jsonl [...]\n');
  process.exit(2);
}
const be = await startBackend({ kind: 'pglite' });
const up = await startTestUpstream({ maxRecorded: 100_000 });
const org = await createTestOrg(be.db, { scopes: ['llm:chat'] });
for (const [name, upstream] of [
  ['leak-echo-all', 'echo-all'],
  ['leak-tool-call', 'tool-call'],
] as const) {
  await addModel(
    be.db,
    { name, base_url: up.baseUrl, upstream_model: upstream, approved_for_phi: true, timeout_ms: 120_000 },
    { orgId: org.orgId, actor: 'eval' },
  );
}
const client = new OpenAI({ baseURL: `${be.baseUrl}/api/v1/llm`, apiKey: org.key, maxRetries: 0, timeout: 300_000 });
try {
  for (const f of files) {
    const r = await runGatewayLeak(client, up, loadGold(f), { echoModel: 'leak-echo-all', toolModel: 'leak-tool-call' });
    process.stdout.write(
      `${f}: ${r.notes} notes, ${r.requests} requests, ${r.stringsChecked} upstream strings; gold PHI strings reaching the upstream: ${r.leaks} (raw-byte hits ${r.rawHits}); answers not fully restored: ${r.incomplete + r.mismatches.length}; ${r.seconds.toFixed(1)} s\n`,
    );
    for (const l of r.leakExamples.slice(0, 20)) process.stdout.write(`  ${l}\n`);
    for (const l of r.rawHitExamples) process.stdout.write(`  raw-byte hit (check by hand: often a substring of another word): ${l}\n`);
    for (const l of r.mismatches.slice(0, 20)) process.stdout.write(`  not restored: ${l}\n`);
  }
} finally {
  await up.close();
  await be.close();
}
