import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { setLogSink } from '@/server/log';
import { resetEnvCache } from '@/server/env';
import { sharedDir } from '@/server/config/paths';

/**
 * "Never store or log the text or the mapping": redact ~20 PHI-bearing notes of the dev corpus (read at test time),
 * through every variant of the endpoint (and a refused, an out-of-scope and a failed-closed call), then dump every table of the database and every captured log line and look
 * for every gold PHI string.
 */
interface GoldNote {
  id: string;
  text: string;
  entities: Array<{ start: number; end: number; type: string; text: string }>;
}

const CORPUS = path.join(sharedDir(), 'eval', 'phi', 'dev.jsonl');

function loadNotes(n: number): GoldNote[] {
  const all = fs
    .readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldNote);
  // a spread over the corpus (every 15th note), so all note types and entity types are represented
  return all.filter((_, i) => i % 15 === 0).slice(0, n);
}

let be: TestBackend;
let org: TestOrg;
let notes: GoldNote[];
const logLines: string[] = [];
let restoreSink: () => void;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'debug'; // capture everything the server logs, not just warnings
  resetEnvCache();
  be = await startBackend();
  org = await createTestOrg(be.db, { scopes: ['redact'] });
  notes = loadNotes(20);
  restoreSink = setLogSink((l) => logLines.push(l));
});
afterAll(async () => {
  restoreSink?.();
  await be?.close();
});

async function dumpDatabase(): Promise<{ text: string; tables: number; receiptRows: number }> {
  const tables = await be.db.query<{ s: string; t: string }>(
    `SELECT table_schema AS s, table_name AS t FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { s, t } of tables) {
    const rows = await be.db.query<{ j: string }>(`SELECT row_to_json(x)::text AS j FROM "${s.replace(/"/g, '""')}"."${t.replace(/"/g, '""')}" x`);
    for (const r of rows) parts.push(r.j);
  }
  const [{ n }] = (await be.db.query<{ n: number }>('SELECT count(*)::int AS n FROM redaction_receipts')) as [{ n: number }];
  return { text: parts.join('\n'), tables: tables.length, receiptRows: n };
}

describe(`no PHI at rest or in logs on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('after redacting 20 dev notes (all variants, refusals and a fail-closed call), no gold PHI string is in the database or the logs', async () => {
    expect(notes).toHaveLength(20);
    const phi = new Set<string>();
    for (const n of notes) for (const e of n.entities) phi.add(e.text);
    const types = new Set(notes.flatMap((n) => n.entities.map((e) => e.type)));
    expect(types.size).toBeGreaterThanOrEqual(7); // PERSON, MY_IC, MRN, PASSPORT, PHONE, EMAIL, CARD, ACCOUNT...
    expect(phi.size).toBeGreaterThan(100);

    let mapped = 0;
    let prior: Record<string, string> | undefined;
    for (const [i, n] of notes.entries()) {
      const variant = i % 4;
      const body: Record<string, unknown> = { text: n.text };
      if (variant === 1) body.return_mapping = false;
      if (variant === 2) body.conversation_key = `conv-${n.id}`;
      if (variant === 3 && prior) body.prior_mapping = prior;
      const r = await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: org.key, body, headers: { 'x-request-id': `leak-test-${n.id}` } });
      expect(r.status).toBe(200);
      expect(r.body.redaction_receipt.status).toBe('ok');
      if (r.body.mapping) {
        prior = r.body.mapping;
        mapped += Object.keys(r.body.mapping).length;
        // the mapping really carries the gold values back to the caller (so the check below is not vacuous)
        const values = new Set(Object.values(r.body.mapping as Record<string, string>));
        expect(n.entities.some((e) => values.has(e.text))).toBe(true);
      }
      for (const e of n.entities) expect(r.body.redacted_text).not.toContain(e.text);
    }
    expect(mapped).toBeGreaterThan(50);

    // a request that fails validation and one that is out of scope carry PHI too
    const invalid = await api(be.baseUrl, 'POST', '/api/v1/redact/', {
      key: org.key,
      body: { text: notes[0]!.text, prior_mapping: { bad: notes[0]!.entities[0]!.text } },
    });
    expect(invalid.status).toBe(400);
    const scoped = await createTestOrg(be.db, { scopes: ['search'] });
    expect((await api(be.baseUrl, 'POST', '/api/v1/redact/', { key: scoped.key, body: { text: notes[1]!.text } })).status).toBe(403);
    // and one that fails closed (test-only fault switch; see redact-failclosed.test.ts)
    const env = process.env as Record<string, string | undefined>;
    const saved = [env.NODE_ENV, env.REDACT_FAULT_INJECTION] as const;
    env.NODE_ENV = 'test';
    env.REDACT_FAULT_INJECTION = '1';
    try {
      const failed = await api(be.baseUrl, 'POST', '/api/v1/redact/', {
        key: org.key,
        body: { text: notes[2]!.text },
        headers: { 'x-redact-fault-injection': 'throw:person' },
      });
      expect(failed.status).toBe(503);
      for (const e of notes[2]!.entities) expect(failed.text).not.toContain(e.text);
    } finally {
      [env.NODE_ENV, env.REDACT_FAULT_INJECTION] = saved;
    }

    const db = await dumpDatabase();
    expect(db.tables).toBeGreaterThan(5);
    expect(db.receiptRows).toBe(notes.length + 1); // one metadata row per successful call, one failed_closed row
    expect(db.text).toContain('leak-test-'); // the dump does see the receipts (request ids)
    const logs = logLines.join('\n');
    expect(logLines.filter((l) => l.includes('"msg":"redaction"')).length).toBe(notes.length); // the sink sees the server
    expect(logs).toContain('leak-test-');

    const leakedDb = [...phi].filter((s) => db.text.includes(s));
    const leakedLogs = [...phi].filter((s) => logs.includes(s));
    expect(leakedDb).toEqual([]);
    expect(leakedLogs).toEqual([]);
  });
});
