import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, startBackend, type TestBackend, type TestOrg } from '../helpers/backend';
import { startTestUpstream, type TestUpstream } from '@/tests/fixtures/test-upstream';
import { addModel } from '@/server/gateway/registry';
import { setSpendCap } from '@/server/billing/ledger';
import { importAthena } from '@/server/search/importer';
import { groupCase, lookupCode } from '@/server/drg';
import { redactText } from '@/server/redact';
import { writeAthenaFiles } from '../fixtures/athena';

/**
 * POST /api/v1/drg/agent/, LLM engine: AGENT_MODEL names a registry model whose upstream is the gateway's scripted
 * test upstream (the one allowed double: real HTTP, the OpenAI wire format, tool calls, usage). The agent's
 * tool-use loop runs through the gateway core in-process; the tests check what left the process (placeholders only),
 * the tool results our cores produced, code validation and its feedback, re-hydration, receipts and the ledger.
 */
const NAME = 'Ahmad Faizal bin Rahman';
const IC = '850101-14-5678';
const PHONE = '012-345 6789';
const NOTE = `DISCHARGE SUMMARY - Hospital Kuala Lumpur
Name: ${NAME}   IC: ${IC}   Tel ${PHONE}
Diagnosis:
1. Community acquired pneumonia
Comorbidities: type 2 diabetes mellitus, hypertension

58 year old man with fever and productive cough for 4 days. No evidence of pleural effusion.
Rule out PE - CTPA negative. Treated with IV antibiotics and discharged well on day 5.`;

const D = '19700101';
const E = '20991231';
function writeFixture(dir: string): void {
  const concepts = [
    [1001, 'Pneumonia, unspecified organism', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'J18.9'],
    [1004, 'Type 2 diabetes mellitus without complications', 'Condition', 'ICD10CM', '4-char billing code', 'S', 'E11.9'],
    [1005, 'Essential (primary) hypertension', 'Condition', 'ICD10CM', '3-char billing code', 'S', 'I10'],
  ];

  writeAthenaFiles(dir, {
    'CONCEPT.csv': concepts.map((c) => [...c, D, E, '']),
    'CONCEPT_RELATIONSHIP.csv': [],
    'CONCEPT_ANCESTOR.csv': [],
    'CONCEPT_SYNONYM.csv': [[1001, 'Community acquired pneumonia', 4180186]],
    'VOCABULARY.csv': [['ICD10CM', 'ICD10CM', 'test', 'v1', 0]],
    'DOMAIN.csv': [['Condition', 'Condition', 0]],
    'CONCEPT_CLASS.csv': [
      ['4-char billing code', 'x', 0],
      ['3-char billing code', 'x', 0],
    ],
    'RELATIONSHIP.csv': [['Is a', 'Is a', 1, 1, 'Subsumes', 0]],
  });
}

const MODEL = 'agent-coder';
let be: TestBackend;
let up: TestUpstream;
let org: TestOrg;
let orgNone: TestOrg;
let orgUnapproved: TestOrg;
let orgCapped: TestOrg;
let fixture: string;
const env = process.env as Record<string, string | undefined>;
const saved = env.AGENT_MODEL;

beforeAll(async () => {
  be = await startBackend();
  up = await startTestUpstream();
  fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-agent-llm-'));
  writeFixture(fixture);
  await importAthena(be.db, fixture);
  org = await createTestOrg(be.db, { scopes: ['drg:classify'] });
  orgNone = await createTestOrg(be.db, { scopes: ['drg:classify'] });
  orgUnapproved = await createTestOrg(be.db, { scopes: ['drg:classify'] });
  orgCapped = await createTestOrg(be.db, { scopes: ['drg:classify'] });
  const model = {
    name: MODEL,
    base_url: up.baseUrl,
    upstream_model: 'scripted-coder',
    approved_for_phi: true,
    price_input_per_1k_usd: 0.01,
    price_output_per_1k_usd: 0.03,
    timeout_ms: 5000,
  };
  await addModel(be.db, model, { orgId: org.orgId, actor: 'test' });
  await addModel(be.db, model, { orgId: orgCapped.orgId, actor: 'test' });
  await addModel(be.db, { ...model, approved_for_phi: false }, { orgId: orgUnapproved.orgId, actor: 'test' });
  env.AGENT_MODEL = MODEL;
});
afterAll(async () => {
  env.AGENT_MODEL = saved;
  await up?.close();
  await be?.close();
  if (fixture) fs.rmSync(fixture, { recursive: true, force: true });
});

const post = (key: string, body: unknown) => api(be.baseUrl, 'POST', '/api/v1/drg/agent/', { key, body });

interface LedgerRow {
  service_type: string;
  units: number;
  cost: string;
  details: { input_tokens: number; output_tokens: number; model: string };
}
const ledger = (orgId: string) =>
  be.db.query<LedgerRow>('SELECT service_type, units, cost_micros::text AS cost, details FROM ledger WHERE org_id = $1 ORDER BY id', [orgId]);

type Msg = { role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] };
const sent = (i: number) => up.requests[i]!.body as { model: string; messages: Msg[]; tools: Array<{ function: { name: string } }>; tool_choice: string };

const finalAnswer = (secondary: Array<{ code: string; evidence?: string }>, rationale: string) =>
  JSON.stringify({ principal: { code: 'J18.9', evidence: 'Community acquired pneumonia' }, secondary, procedures: [], sex: 'M', alive: true, rationale });

describe(`DRG agent, LLM engine through the gateway core, on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  it('runs a tool-use loop on redacted text, validates codes with feedback, re-hydrates, bills real tokens', async () => {
    // the placeholder the agent's redaction gives the patient's name (same engine, same text)
    const mapping = redactText(NOTE).mapping;
    const namePh = Object.entries(mapping).find(([, v]) => v === NAME)?.[0];
    expect(namePh).toMatch(/^\[PERSON_\d+\]$/);
    const expected = await groupCase('v40', { dx: ['J189', 'E119', 'I10'], sex: 'M', alive: true });

    up.reset();
    up.enqueue(
      { tool_calls: [{ name: 'search_concepts', arguments: JSON.stringify({ query: 'community acquired pneumonia', kind: 'dx' }) }] },
      {
        tool_calls: [
          { name: 'lookup_code', arguments: JSON.stringify({ code: 'E11' }) },
          { name: 'classify_drg', arguments: JSON.stringify({ dx_codes: ['J18.9', 'E11.9', 'I10'], sex: 'M' }) },
        ],
      },
      // E11 is a header (not billable); 0DTJ4ZZ is a procedure listed as a diagnosis: both are rejected and fed back
      {
        content: finalAnswer(
          [{ code: 'E11', evidence: 'type 2 diabetes mellitus' }, { code: 'I10', evidence: 'hypertension' }, { code: '0DTJ4ZZ' }],
          'first try',
        ),
      },
      {
        content: `\`\`\`json\n${finalAnswer(
          [
            { code: 'E11.9', evidence: 'type 2 diabetes mellitus' },
            { code: 'I10', evidence: 'hypertension' },
          ],
          `${namePh} was admitted with community acquired pneumonia; PE was ruled out (CTPA negative). E11.9 and I10 are not CCs.`,
        )}\n\`\`\``,
      },
    );
    const before = (await ledger(org.orgId)).length;
    const r = await post(org.key, { message: NOTE });
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b.engine).toBe('llm');
    expect(b.model).toBe(MODEL);
    expect(b.engine_note).toBeNull();

    // what left the process: four model calls, placeholders only
    expect(up.requests).toHaveLength(4);
    for (const req of up.requests) {
      expect(req.raw).not.toContain(NAME);
      expect(req.raw).not.toContain(IC);
      expect(req.raw).not.toContain(PHONE);
      expect(req.raw).not.toContain('Ahmad');
    }
    const first = sent(0);
    expect(first.model).toBe('scripted-coder');
    expect(first.tools.map((t) => t.function.name)).toEqual(['search_concepts', 'lookup_code', 'classify_drg']);
    expect(first.tool_choice).toBe('auto');
    expect(first.messages[1]!.content).toContain(namePh!);
    expect(first.messages[1]!.content).toContain('Community acquired pneumonia');
    // tool results came from our search engine and grouper
    const toolMsgs = (i: number) =>
      sent(i)
        .messages.filter((m) => m.role === 'tool')
        .map((m) => JSON.parse(m.content!) as Record<string, unknown>);
    const search = toolMsgs(1)[0] as { results: Array<{ code: string; billable: boolean }> };
    expect(search.results[0]).toMatchObject({ code: 'J18.9', billable: true });
    const [lookup, classify] = toolMsgs(2).slice(-2) as [Record<string, unknown>, Record<string, unknown>];
    expect(lookup).toMatchObject({ code: 'E11', valid: false, billable: false });
    expect(classify).toMatchObject({ drg: expected.drg, mdc: expected.mdc });
    // the rejection was fed back to the model
    const feedback = sent(3)
      .messages.filter((m) => m.role === 'user')
      .pop()!.content!;
    expect(feedback).toContain('E11 (not billable');
    expect(feedback).toContain('0DTJ4ZZ (an ICD-10-PCS procedure code listed as a diagnosis)');

    // the answer: validated codes, the grouper's DRG, re-hydrated rationale and evidence
    expect(b.codes.principal).toMatchObject({ code: 'J189', role: 'principal' });
    expect(b.codes.secondary.map((c: { code: string }) => c.code)).toEqual(['E119', 'I10']);
    expect(b.codes.rejected).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'E11', reason: expect.stringContaining('not billable') }),
        expect.objectContaining({ code: '0DTJ4ZZ' }),
      ]),
    );
    const ev = b.codes.principal.evidence[0];
    expect(NOTE.slice(ev.start, ev.end)).toBe('Community acquired pneumonia');
    expect(b.codes.rationale.join(' ')).toContain(`${NAME} was admitted`);
    expect(b.response).toContain(NAME);
    expect(b.response).not.toContain(namePh!);
    expect(b.drg).toMatchObject({ primary_drg: expected.drg, version: 'v40' });
    expect(b.redaction_receipt).toMatchObject({ status: 'ok', rehydration_complete: true, unresolved_placeholder_count: 0 });
    expect(b.redaction_receipt.entities_redacted.MY_IC).toBe(1);

    // real token usage, billed once per model call through the gateway core
    const rows = (await ledger(org.orgId)).slice(before);
    expect(rows).toHaveLength(4);
    expect(rows.every((x) => x.service_type === 'llm_chat' && x.details.model === MODEL)).toBe(true);
    const sum = (k: 'input_tokens' | 'output_tokens') => rows.reduce((n, x) => n + Number(x.details[k]), 0);
    expect(b.token_usage).toEqual({ input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens') });
    expect(b.token_usage.input_tokens).toBeGreaterThan(0);
    expect(b.llm).toMatchObject({ model: MODEL, calls: 4 });
    expect(b.llm.cost_micros).toBe(rows.reduce((n, x) => n + Number(x.cost), 0));
    expect(b.llm.cost_micros).toBeGreaterThan(0);
    // receipts: the agent's, and one per model call from the gateway, all source 'agent'
    const ids = [b.redaction_receipt.receipt_id, ...b.llm.gateway_receipt_ids];
    const stored = await be.db.query<{ source: string }>('SELECT source FROM redaction_receipts WHERE id = ANY($1::uuid[])', [ids]);
    expect(stored).toHaveLength(5);
    expect(stored.every((s) => s.source === 'agent')).toBe(true);
  });

  it('deidentified text is still screened: the model sees placeholders, the receipt records the assertion', async () => {
    up.reset();
    up.enqueue({ content: finalAnswer([], 'CAP.') });
    const r = await post(org.key, { message: NOTE, deidentified: true });
    expect(r.status).toBe(200);
    expect(r.body.engine).toBe('llm');
    expect(up.requests).toHaveLength(1);
    expect(up.requests[0]!.raw).not.toContain(NAME);
    expect(up.requests[0]!.raw).not.toContain(IC);
    expect(r.body.redaction_receipt).toMatchObject({ client_asserted_deidentified: true, redacted_anyway: true, status: 'ok' });
    expect(r.body.redaction_receipt.entities_redacted.MY_IC).toBe(1);
  });

  it('states the assumptions behind the model codes too, computed from the code tables after validation (the model cannot drop them)', async () => {
    const note =
      'Diagnosis:\n1. Community acquired pneumonia\nComorbidities: diabetes mellitus; nuclear cataract\nProcedure: appendicectomy\n70 year old man, discharged home day 4.';
    up.reset();
    // the model says nothing about assumptions: it picks E11.9 (type not documented), H25.11 (side not documented),
    // 0DTJ0ZZ (approach not documented) and J18.9
    up.enqueue({
      content: JSON.stringify({
        principal: { code: 'J18.9', evidence: 'Community acquired pneumonia' },
        secondary: [
          { code: 'E11.9', evidence: 'diabetes mellitus' },
          { code: 'H25.11', evidence: 'nuclear cataract' },
        ],
        procedures: [{ code: '0DTJ0ZZ', evidence: 'appendicectomy' }],
        sex: 'M',
        alive: true,
        rationale: 'Pneumonia was treated. Diabetes and cataract are comorbidities.',
      }),
    });
    const r = await post(org.key, { message: note, deidentified: true });
    expect(r.status).toBe(200);
    expect(r.body.engine).toBe('llm');
    const byCode = (code: string) =>
      [...r.body.codes.secondary, ...r.body.codes.procedures, r.body.codes.principal].find((c: { code: string }) => c.code === code);
    const about = (code: string) => (byCode(code).assumptions ?? []).map((a: { about: string }) => a.about);
    expect(about('E119')).toEqual(['type of diabetes']);
    expect(byCode('E119').assumptions[0].alternatives.map((a: { code: string }) => a.code)).toEqual(['E109', 'E139']);
    expect(about('H2511')).toEqual(['side (laterality)']);
    expect(byCode('H2511').assumptions[0].alternatives.map((a: { code: string; label: string }) => [a.code, a.label])).toEqual([['H2512', 'left']]);
    expect(about('0DTJ0ZZ')).toEqual(['surgical approach']);
    expect(byCode('0DTJ0ZZ').assumptions[0].alternatives.map((a: { code: string }) => a.code)).toContain('0DTJ4ZZ');
    expect(byCode('J189').assumptions).toBeUndefined();
    // every alternative is valid and billable in the grouper version
    for (const c of [byCode('E119'), byCode('H2511'), byCode('0DTJ0ZZ')]) {
      for (const a of c.assumptions[0].alternatives) {
        const info = await lookupCode('v40', a.code);
        expect(info.valid && info.billable, a.code).toBe(true);
      }
    }
    const rationale = r.body.codes.rationale.join(' ');
    expect(rationale).toContain('E11.9: the note does not say the type of diabetes; assumed type 2');
    expect(rationale).toContain('H25.11: the note does not say the side (laterality); assumed right');
    // the same note with the type, the side and the approach written: nothing assumed
    up.enqueue({
      content: JSON.stringify({
        principal: { code: 'J18.9', evidence: 'Community acquired pneumonia' },
        secondary: [
          { code: 'E11.9', evidence: 'type 2 diabetes mellitus' },
          { code: 'H25.11', evidence: 'right nuclear cataract' },
        ],
        procedures: [{ code: '0DTJ0ZZ', evidence: 'open appendicectomy' }],
        sex: 'M',
        alive: true,
        rationale: 'ok',
      }),
    });
    const stated = await post(org.key, {
      message: note
        .replace('diabetes mellitus; nuclear cataract', 'type 2 diabetes mellitus; right nuclear cataract')
        .replace('appendicectomy', 'open appendicectomy'),
      deidentified: true,
    });
    expect(stated.status).toBe(200);
    const all = [stated.body.codes.principal, ...stated.body.codes.secondary, ...stated.body.codes.procedures];
    expect(all.map((c: { code: string }) => c.code).sort()).toEqual(['0DTJ0ZZ', 'E119', 'H2511', 'J189']);
    expect(all.every((c: { assumptions?: unknown }) => c.assumptions === undefined)).toBe(true);
  });

  it('falls back to the deterministic engine when the model never gives a valid principal; the calls are billed', async () => {
    up.reset();
    const bad = JSON.stringify({ principal: { code: 'Q99.99' }, secondary: [], procedures: [], rationale: 'no' });
    up.enqueue({ content: bad }, { content: bad }, { content: bad });
    const before = (await ledger(org.orgId)).length;
    const r = await post(org.key, { message: NOTE });
    expect(r.status).toBe(200);
    expect(up.requests).toHaveLength(3);
    expect(r.body.engine).toBe('deterministic');
    expect(r.body.engine_note).toMatch(/did not return a valid principal diagnosis within 3 calls/);
    expect(r.body.codes.principal.code).toBe('J189');
    expect(r.body.llm.calls).toBe(3);
    expect(r.body.token_usage.input_tokens).toBeGreaterThan(0);
    expect((await ledger(org.orgId)).length - before).toBe(3);
  });

  it('an upstream failure is an error, not a guess; a failed call is not billed', async () => {
    up.reset();
    up.enqueue({ status: 500 });
    const before = (await ledger(org.orgId)).length;
    const r = await post(org.key, { message: NOTE });
    expect(r.status).toBe(502);
    expect(r.body.error).toBe('upstream_error');
    expect(r.text).not.toContain(NAME);
    expect((await ledger(org.orgId)).length).toBe(before);
  });

  it('falls back to the deterministic engine, and says why, when the model is missing or not approved for PHI', async () => {
    up.reset();
    const none = await post(orgNone.key, { message: NOTE });
    expect(none.status).toBe(200);
    expect(none.body.engine).toBe('deterministic');
    expect(none.body.engine_note).toContain(`AGENT_MODEL '${MODEL}' is not in the model registry`);
    expect(none.body.token_usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    const unapproved = await post(orgUnapproved.key, { message: NOTE });
    expect(unapproved.body.engine).toBe('deterministic');
    expect(unapproved.body.engine_note).toContain('not approved for PHI');
    expect(up.requests).toHaveLength(0);
    expect(await ledger(orgNone.orgId)).toHaveLength(0);
  });

  it('an organisation at its spend cap is refused before any model call', async () => {
    await setSpendCap(be.db, orgCapped.orgId, 0);
    up.reset();
    const r = await post(orgCapped.key, { message: NOTE });
    expect(r.status).toBe(429);
    expect(r.body.error).toBe('spend_cap_reached');
    expect(up.requests).toHaveLength(0);
    expect(await ledger(orgCapped.orgId)).toHaveLength(0);
  });
});
