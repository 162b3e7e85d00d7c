/**
 * `npm run dev:upstream` — the gateway's OpenAI-compatible test upstream, for demos on one machine (no real LLM).
 * It answers according to the upstream model name (echo, echo-all, tool-call, alter, stall, error, no-usage; see
 * tests/fixtures/test-upstream.ts) and prints one line per request. With --show-bodies it also prints the messages it
 * received, so you can see that only placeholders arrive.
 *
 * Options: --port N (default 4010, or UPSTREAM_PORT; 0 = any free port), --host H (default 127.0.0.1),
 *          --require-key K (demand `Authorization: Bearer K`), --chunk-delay-ms N (slow streams), --show-bodies, --quiet
 */
import { startTestUpstream } from '../tests/fixtures/test-upstream';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

const port = Number(opt('port') ?? process.env.UPSTREAM_PORT ?? 4010);
const quiet = flag('quiet');
const showBodies = flag('show-bodies');

const up = await startTestUpstream({
  port,
  host: opt('host') ?? '127.0.0.1',
  requireKey: opt('require-key'),
  chunkDelayMs: opt('chunk-delay-ms') ? Number(opt('chunk-delay-ms')) : undefined,
  maxRecorded: 100,
  onRequest: (r) => {
    if (quiet) return;
    const b = (r.body ?? {}) as { model?: unknown; stream?: unknown; messages?: Array<{ role?: unknown; content?: unknown }> };
    process.stdout.write(
      `${new Date().toISOString()} POST ${r.path} model=${String(b.model)} stream=${b.stream === true} messages=${b.messages?.length ?? 0}\n`,
    );
    if (showBodies)
      for (const m of b.messages ?? []) process.stdout.write(`  ${String(m.role)}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}\n`);
  },
});

process.stdout.write(`Test upstream (OpenAI-compatible) listening on ${up.baseUrl}\n`);
if (!quiet) {
  process.stdout.write(
    [
      '',
      'Upstream models: echo (default), echo-all, tool-call, alter, stall, error, no-usage',
      '',
      'Register it with the gateway (deployment-wide, approved for PHI):',
      `  npm run --silent cli -- model add demo-echo --base-url ${up.baseUrl} --upstream-model echo --approved-for-phi`,
      '',
      'Then call the gateway with the openai client (baseURL <gateway>/api/v1/llm) or curl:',
      `  curl -s http://localhost:3000/api/v1/llm/chat/completions -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \\`,
      `    -d '{"model":"demo-echo","messages":[{"role":"user","content":"Pt Ahmad bin Ali, IC 850101-14-5678"}]}'`,
      '',
    ].join('\n') + '\n',
  );
}

const stop = () => {
  void up.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
