/**
 * The LLM engine: the model reads the redacted note, uses our tools (search engine, code lookup, grouper) through a
 * tool-use loop that runs entirely through the gateway core in-process (`chatCompletion`: redaction screen,
 * upstream call, receipt, one ledger row per model call), and answers with a JSON coding. Every code it proposes is
 * verified against the grouper version; invalid, non-billable or wrong-kind codes are rejected and fed back, at
 * most MAX_FIX_ROUNDS times. The DRG is never the model's: the grouper computes it from the accepted codes.
 *
 * Privacy: the note is redacted by the agent's own RedactionSession before anything is built; the gateway runs with
 * redact_only so placeholders come back as placeholders, and the agent re-hydrates the evidence and rationale with its
 * own mapping at the very end. The mapping never leaves this request.
 */
import type { Database } from '../db';
import type { Principal } from '../auth/principal';
import { lookupCode } from '../drg';
import { chatCompletion } from '../gateway/core';
import type { ModelRecord } from '../gateway/registry';
import type { ChatMessage } from '../gateway/schema';
import type { RedactionSession } from '../redact';
import { addAssumptions } from './assumptions';
import { AGENT_TOOLS, runTool } from './tools';
import { displayCode, type CodeResolver } from './resolve';
import type { AgentCode, CodingResult, Evidence, PatientFacts } from './types';

export const MAX_TURNS = 10;
export const MAX_FIX_ROUNDS = 2;
/** The whole loop's budget, in multiples of the model's own time budget (each call also has that budget). */
const LOOP_BUDGET_FACTOR = 4;
const MAX_TOKENS = 2000;

export function systemPrompt(version: string): string {
  return [
    'You are a senior clinical coder. Read the discharge summary and code the inpatient stay with ICD-10-CM diagnoses and ICD-10-PCS procedures for MS-DRG grouper version ' +
      version +
      '.',
    'Rules: follow the ICD-10-CM Official Guidelines for inpatient coding. The principal diagnosis is the condition established after study to be chiefly responsible for the admission. Do not code negated or ruled-out conditions ("no evidence of", "ruled out", "negative"), family history, planned or hypothetical procedures, or past conditions that no longer exist (use personal-history Z codes only when relevant). Uncertain diagnoses documented at discharge ("probable", "likely") are coded as if established. Do not code signs and symptoms integral to a confirmed diagnosis. Use combination codes where the classification provides them.',
    'Placeholders such as [PERSON_1] or [MY_IC_1] replace identifiers; never try to guess them, and keep them unchanged if you quote text.',
    'Use the tools: search_concepts to find codes, lookup_code to check that each code is valid and billable, classify_drg to see the DRG and which secondary codes count as CC/MCC.',
    'When you are done, answer with ONE JSON object and nothing else:',
    '{"principal": {"code": "J18.9", "evidence": "words quoted from the note"}, "secondary": [{"code": "E11.9", "evidence": "…"}], "procedures": [{"code": "0DTJ4ZZ", "evidence": "…"}], "sex": "F" | "M" | null, "alive": true | false, "rationale": "two to five sentences: why this principal diagnosis, which secondary diagnoses are CC/MCC, what was deliberately not coded"}',
    'Evidence must be short exact quotes from the note.',
  ].join('\n\n');
}

interface FinalCode {
  code: string;
  evidence?: string;
}

interface FinalAnswer {
  principal: FinalCode | null;
  secondary: FinalCode[];
  procedures: FinalCode[];
  sex: 'F' | 'M' | null;
  alive: boolean | null;
  rationale: string;
}

function asCode(v: unknown): FinalCode | null {
  if (typeof v === 'string') return v.trim() ? { code: v.trim() } : null;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const code = typeof o.code === 'string' ? o.code.trim() : '';
    if (!code) return null;
    return { code, evidence: typeof o.evidence === 'string' ? o.evidence : undefined };
  }
  return null;
}

/** The JSON object in the model's final message (bare, or inside a ```json fence, or the outermost {...}). */
export function parseFinalAnswer(content: string | null): FinalAnswer | null {
  if (!content) return null;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const candidates = [fenced?.[1], content, content.slice(content.indexOf('{'), content.lastIndexOf('}') + 1)];
  for (const c of candidates) {
    if (!c || !c.trim().startsWith('{')) continue;
    try {
      const o = JSON.parse(c) as Record<string, unknown>;
      if (!('principal' in o)) continue;
      const list = (v: unknown) => (Array.isArray(v) ? v.map(asCode).filter((x): x is FinalCode => !!x) : []);
      return {
        principal: asCode(o.principal),
        secondary: list(o.secondary),
        procedures: list(o.procedures),
        sex: o.sex === 'F' || o.sex === 'M' ? o.sex : null,
        alive: typeof o.alive === 'boolean' ? o.alive : null,
        rationale: typeof o.rationale === 'string' ? o.rationale : Array.isArray(o.rationale) ? o.rationale.filter((x) => typeof x === 'string').join(' ') : '',
      };
    } catch {
      /* try the next reading */
    }
  }
  return null;
}

interface Checked {
  accepted: Array<{ code: string; kind: 'dx' | 'pr'; title: string; evidence?: string; role: AgentCode['role'] }>;
  rejected: Array<{ code: string; reason: string }>;
}

async function checkCodes(answer: FinalAnswer, version: string): Promise<Checked> {
  const accepted: Checked['accepted'] = [];
  const rejected: Checked['rejected'] = [];
  const seen = new Set<string>();
  const check = async (c: FinalCode, want: 'dx' | 'pr', role: AgentCode['role']) => {
    const info = await lookupCode(version, c.code);
    const shown = displayCode(info.code, info.kind);
    if (!/^[A-Z0-9]{3,7}$/.test(info.code)) return void rejected.push({ code: c.code.slice(0, 16), reason: 'not a code' });
    if (info.kind !== want)
      return void rejected.push({
        code: shown,
        reason: want === 'dx' ? 'an ICD-10-PCS procedure code listed as a diagnosis' : 'an ICD-10-CM diagnosis code listed as a procedure',
      });
    if (!info.valid && !info.title)
      return void rejected.push({ code: shown, reason: `not an ${want === 'dx' ? 'ICD-10-CM' : 'ICD-10-PCS'} code in ${version}` });
    if (!info.billable || !info.valid) {
      return void rejected.push({ code: shown, reason: `not billable in ${version} (${info.title ?? 'a category header'}): choose a complete code under it` });
    }
    if (seen.has(info.code)) return;
    seen.add(info.code);
    accepted.push({ code: info.code, kind: want, title: info.title ?? '', evidence: c.evidence, role });
  };
  if (answer.principal) await check(answer.principal, 'dx', 'principal');
  for (const c of answer.secondary) await check(c, 'dx', 'secondary');
  for (const c of answer.procedures) await check(c, 'pr', 'procedure');
  return { accepted, rejected };
}

export interface LlmRun {
  coding: CodingResult | null;
  usage: { input_tokens: number; output_tokens: number };
  calls: number;
  costMicros: number;
  receiptIds: string[];
  /** Placeholders the agent could not restore in evidence and rationale. */
  unresolved: number;
  note: string | null;
}

/** Find a quote in the original note (after re-hydration) for highlighting. */
function locate(original: string, quote: string): { start: number; end: number } | null {
  const q = quote.trim().replace(/^["“”']+|["“”'.]+$/g, '');
  if (q.length < 2) return null;
  let i = original.indexOf(q);
  if (i < 0) i = original.toLowerCase().indexOf(q.toLowerCase());
  return i < 0 ? null : { start: i, end: i + q.length };
}

export async function codeNoteWithModel(
  db: Database,
  principal: Principal,
  args: {
    model: ModelRecord;
    version: string;
    original: string;
    redacted: string;
    session: RedactionSession;
    resolver: CodeResolver;
    fallbackPatient: PatientFacts;
    requestId?: string;
    signal?: AbortSignal;
  },
): Promise<LlmRun> {
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(args.version) },
    { role: 'user', content: `Grouper version: ${args.version}\n\nDischarge summary:\n${args.redacted}` },
  ];
  const run: LlmRun = { coding: null, usage: { input_tokens: 0, output_tokens: 0 }, calls: 0, costMicros: 0, receiptIds: [], unresolved: 0, note: null };
  let fixRounds = 0;
  let lastChecked: Checked | null = null;
  let lastAnswer: FinalAnswer | null = null;
  const rejectedAll: Array<{ code: string; reason: string }> = [];

  const deadline = performance.now() + Math.max(30_000, args.model.timeoutMs * LOOP_BUDGET_FACTOR);
  let outOfTime = false;
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    if (turn > 0 && performance.now() > deadline) {
      outOfTime = true;
      break;
    }
    const res = await chatCompletion(
      db,
      principal,
      { model: args.model.name, messages, tools: AGENT_TOOLS, tool_choice: 'auto', redact_only: true, max_tokens: MAX_TOKENS, temperature: 0 },
      { source: 'agent', requestId: args.requestId, signal: args.signal },
    );
    run.calls++;
    run.usage.input_tokens += res.usage.input_tokens;
    run.usage.output_tokens += res.usage.output_tokens;
    run.costMicros += res.cost_micros;
    if (res.receipt_id) run.receiptIds.push(res.receipt_id);
    // redact_only: what came back still carries placeholders; it is what we send on the next turn
    const msg = res.completion.choices[0]!.message;
    if (msg.tool_calls?.length) {
      messages.push({ role: 'assistant', content: msg.content ?? null, tool_calls: msg.tool_calls });
      for (const call of msg.tool_calls) {
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: await runTool(call.function.name, call.function.arguments, { resolver: args.resolver, version: args.version }),
        });
      }
      continue;
    }
    const answer = parseFinalAnswer(msg.content);
    messages.push({ role: 'assistant', content: msg.content ?? '' });
    if (!answer) {
      if (fixRounds++ >= MAX_FIX_ROUNDS) break;
      messages.push({
        role: 'user',
        content:
          'Answer with the single JSON object described in the instructions (principal, secondary, procedures, sex, alive, rationale), and nothing else.',
      });
      continue;
    }
    lastAnswer = answer;
    lastChecked = await checkCodes(answer, args.version);
    rejectedAll.push(...lastChecked.rejected.filter((r) => !rejectedAll.some((x) => x.code === r.code && x.reason === r.reason)));
    const principalOk = lastChecked.accepted.some((a) => a.role === 'principal');
    if ((!lastChecked.rejected.length && principalOk) || fixRounds >= MAX_FIX_ROUNDS) break;
    fixRounds++;
    messages.push({
      role: 'user',
      content: `These codes were rejected by validation against the ${args.version} code tables: ${lastChecked.rejected.map((r) => `${r.code} (${r.reason})`).join('; ')}.${principalOk ? '' : ' The principal diagnosis must be a valid, billable ICD-10-CM code.'} Use lookup_code or search_concepts, then answer again with the complete JSON object.`,
    });
  }

  if (!lastAnswer || !lastChecked || !lastChecked.accepted.some((a) => a.role === 'principal')) {
    run.note = `The model did not return a valid principal diagnosis within ${run.calls} call${run.calls === 1 ? '' : 's'}${outOfTime ? ' (time budget of the tool loop used up)' : ''}${rejectedAll.length ? ` (rejected: ${rejectedAll.map((r) => r.code).join(', ')})` : ''}.`;
    return run;
  }

  // re-hydrate what the model wrote (evidence quotes, rationale) with the agent's own mapping
  const restore = (s: string) => {
    const r = args.session.rehydrate(s);
    run.unresolved += r.unresolved;
    return r.text;
  };
  const toCode = (a: Checked['accepted'][number]): AgentCode => {
    const evidence: Evidence[] = [];
    if (a.evidence) {
      const text = restore(a.evidence);
      const at = locate(args.original, text);
      evidence.push({ text, start: at?.start ?? null, end: at?.end ?? null, section: null });
    }
    return {
      code: a.code,
      display: displayCode(a.code, a.kind),
      kind: a.kind,
      role: a.role,
      title: a.title,
      cc_mcc: null,
      is_or: null,
      concept: null,
      assertion: 'present',
      rule: null,
      evidence,
    };
  };
  const principalCode = lastChecked.accepted.find((a) => a.role === 'principal')!;
  const rationale = lastAnswer.rationale ? restore(lastAnswer.rationale) : '';
  run.coding = {
    principal: toCode(principalCode),
    secondary: lastChecked.accepted.filter((a) => a.role === 'secondary').map(toCode),
    procedures: lastChecked.accepted.filter((a) => a.role === 'procedure').map(toCode),
    excluded: [],
    rejected: rejectedAll,
    patient: {
      ...args.fallbackPatient,
      sex: lastAnswer.sex ?? args.fallbackPatient.sex,
      sex_evidence: lastAnswer.sex ? 'stated by the model' : args.fallbackPatient.sex_evidence,
      alive: lastAnswer.alive ?? args.fallbackPatient.alive,
      discharge_status:
        lastAnswer.alive === false ? 20 : lastAnswer.alive === true && args.fallbackPatient.discharge_status === 20 ? 1 : args.fallbackPatient.discharge_status,
    },
    principal_reason: 'chosen by the model',
    rationale: rationale ? rationale.split(/(?<=[.!?])\s+(?=[A-Z])/).filter(Boolean) : [],
  };
  // the same table-driven assumptions as the deterministic engine, computed here from the validated codes and the
  // original note (in-process, after re-hydration): the model cannot drop them
  await addAssumptions(run.coding, args.version, args.original);
  return run;
}
