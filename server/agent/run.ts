/**
 * One agent request, either engine: redact first (fail closed), choose the engine, code, group with the grouper,
 * write the receipt, compose the §2.8 answer. HTTP-free: the router (and tests) call `runAgent`.
 *
 * Billing: the deterministic engine is free and writes no ledger row (like /drg/classify). The LLM engine is billed
 * by the gateway core, one `llm_chat` ledger row per model call with the upstream's real token counts at the
 * registry price, exactly once per call (idempotency ref = the completion id); `token_usage` is the sum over the calls.
 *
 * Receipts: one per agent request (source 'agent'): what the agent's redaction found in the note (for an assertion of
 * de-identification too: the engine always runs), and in LLM mode whether every placeholder in the model's text was
 * restored. The gateway also records one metadata-only receipt per model call (source 'agent').
 */
import type { Database } from '../db';
import type { Principal } from '../auth/principal';
import { assertUnderCap } from '../billing/ledger';
import type { GroupResult } from '../drg';
import { AppError } from '../errors';
import { log } from '../log';
import { buildReceipt, failedClosedReceipt, isRedactionFailedError, RedactionSession, type FaultInjection, type RedactionReceipt } from '../redact';
import { persistReceipt } from '../gateway/receipts';
import { chooseEngine } from './config';
import { codeNoteDeterministic } from './deterministic';
import { patientFacts } from './extract';
import { groupCoding } from './grouping';
import { codeNoteWithModel } from './llm';
import { CodeResolver, displayCode } from './resolve';
import type { AgentCode, AgentEngine, CodingResult } from './types';

export interface AgentInput {
  message: string;
  deidentified: boolean;
  /** Canonical grouper version (the door validates the hint). */
  version: string;
}

export interface AgentRunOptions {
  requestId?: string;
  signal?: AbortSignal;
  /** Test-only; honoured only when NODE_ENV=test and REDACT_FAULT_INJECTION=1. */
  faultInjection?: FaultInjection;
  /** Tests of the offline fallback: resolve codes without the search engine. */
  searchDisabled?: boolean;
}

export type AgentReceipt = RedactionReceipt & { receipt_id?: string };

export interface AgentRunResult {
  response: string;
  token_usage: { input_tokens: number; output_tokens: number };
  response_time_ms: number;
  engine: AgentEngine;
  engine_note: string | null;
  model: string | null;
  version: string;
  coding: CodingResult;
  group: GroupResult | null;
  redaction_receipt: AgentReceipt;
  llm: { model: string; calls: number; cost_micros: number; gateway_receipt_ids: string[] } | null;
  /** How codes were resolved: search (search engine), category (code range from the CMS files), titles (CMS title search). */
  resolution: string[];
  /** The Group a case page, prefilled with the codes. */
  grouper_link: string;
}

export function grouperLink(coding: CodingResult): string {
  const q = new URLSearchParams();
  for (const c of [coding.principal, ...coding.secondary].filter((x): x is AgentCode => !!x).slice(0, 10)) q.append('dx', c.display);
  for (const c of coding.procedures.slice(0, 10)) q.append('pr', c.code);
  const s = q.toString();
  return s ? `/grouper?${s}` : '/grouper';
}

function codeLine(c: AgentCode): string {
  const level = c.kind === 'dx' && c.role !== 'principal' && c.cc_mcc ? ` [${c.cc_mcc}]` : c.kind === 'pr' && c.is_or ? ' [O.R.]' : '';
  const ev = c.evidence[0]?.text;
  return `${c.display} ${c.title}${level}${ev ? ` — “${ev.length > 120 ? `${ev.slice(0, 117)}…` : ev}”` : ''}`;
}

/** The §2.8 `response` text: codes with evidence, the DRG, the rationale. */
export function composeResponse(coding: CodingResult, group: GroupResult | null, engine: AgentEngine, note: string | null): string {
  const out: string[] = [];
  if (!coding.principal) {
    out.push(
      'No codable diagnosis was found in the text, so no DRG was assigned. Send a discharge summary or a clinical description of the stay (diagnoses, procedures); structured codes can go to POST /api/v1/drg/classify/.',
    );
  } else {
    out.push(`Principal diagnosis: ${codeLine(coding.principal)}`);
    out.push(coding.secondary.length ? `Secondary diagnoses:\n${coding.secondary.map((c) => `- ${codeLine(c)}`).join('\n')}` : 'Secondary diagnoses: none.');
    out.push(coding.procedures.length ? `Procedures:\n${coding.procedures.map((c) => `- ${codeLine(c)}`).join('\n')}` : 'Procedures: none.');
  }
  if (group) {
    const type = group.type === 'P' ? 'surgical (P)' : group.type === 'M' ? 'medical (M)' : 'no type';
    out.push(
      `MS-DRG ${group.drg} ${group.description} — MDC ${group.mdc} (${group.mdc_description}), ${type}; severity ${group.severity}${group.severity_driver ? ` from ${displayCode(group.severity_driver, 'dx')}` : ''}; grouper ${group.version} (${group.fiscal_year})${group.return_code !== 'OK' ? `; return code ${group.return_code}` : ''}.`,
    );
  }
  const facts = [
    `sex ${coding.patient.sex ?? 'not documented'}`,
    coding.patient.alive ? `discharged alive (status ${String(coding.patient.discharge_status).padStart(2, '0')})` : 'expired (status 20)',
  ];
  out.push(`Patient: ${facts.join(', ')}.`);
  if (coding.rationale.length) out.push(`Rationale:\n${coding.rationale.map((r) => `- ${r}`).join('\n')}`);
  if (coding.rejected.length) out.push(`Rejected codes: ${coding.rejected.map((r) => `${r.code} (${r.reason})`).join('; ')}.`);
  out.push(
    `Engine: ${engine}${note ? ` — ${note}` : ''}. Codes were verified against the ${group?.version ?? 'grouper'} code tables and the DRG was computed by the MS-DRG grouper.`,
  );
  return out.join('\n\n');
}

export async function runAgent(db: Database, principal: Principal, input: AgentInput, opts: AgentRunOptions = {}): Promise<AgentRunResult> {
  const started = performance.now();
  const chars = input.message.length;

  // 1. redaction first, in both engines; nothing is built from the text before it succeeds (fail closed)
  const session = new RedactionSession({ faultInjection: opts.faultInjection });
  let redacted: string;
  try {
    redacted = session.redact(input.message).redacted_text;
  } catch (err) {
    const reason = isRedactionFailedError(err) ? err.reason : 'recognizer_error';
    log.warn('agent redaction failed closed', { request_id: opts.requestId, reason });
    const receipt = failedClosedReceipt({ freeTextFields: 1, clientAssertedDeidentified: input.deidentified });
    const id = await persistReceipt(db, principal, 'agent', receipt, {
      requestId: opts.requestId,
      inputChars: chars,
      durationMs: performance.now() - started,
      failureReason: reason,
    });
    throw new AppError(
      'redaction_failed',
      `Redaction could not complete (${reason}), so nothing was coded or sent to a model and no text is returned. Retrying will not help unless the input changes.`,
      {
        reason,
        redaction_receipt: { ...receipt, ...(id ? { receipt_id: id } : {}) },
      },
    );
  }

  // 2. engine
  const choice = await chooseEngine(db, principal.orgId);
  const resolver = new CodeResolver(db, input.version, { searchDisabled: opts.searchDisabled });
  const facts = patientFacts(input.message);
  const fallbackPatient = {
    sex: facts.sex.value,
    sex_evidence: facts.sex.evidence,
    alive: facts.alive.value,
    alive_evidence: facts.alive.evidence,
    discharge_status: facts.dischargeStatus,
  };
  let engine: AgentEngine = choice.engine;
  let note = choice.note;
  let coding: CodingResult | null = null;
  let llm: AgentRunResult['llm'] = null;
  let usage = { input_tokens: 0, output_tokens: 0 };
  let unresolved = 0;

  if (choice.engine === 'llm' && choice.model) {
    await assertUnderCap(db, principal.orgId, principal.kind === 'api_key' ? principal.sandbox : false);
    const run = await codeNoteWithModel(db, principal, {
      model: choice.model,
      version: input.version,
      original: input.message,
      redacted,
      session,
      resolver,
      fallbackPatient,
      requestId: opts.requestId,
      signal: opts.signal,
    });
    usage = run.usage;
    unresolved = run.unresolved;
    llm = { model: choice.model.name, calls: run.calls, cost_micros: run.costMicros, gateway_receipt_ids: run.receiptIds };
    coding = run.coding;
    if (!coding) {
      engine = 'deterministic';
      note = `${run.note ?? 'The model gave no usable answer.'} The deterministic engine answered; the model calls were billed.`;
    }
  }
  // the deterministic engine reads the original text: it runs in-process and nothing leaves it
  coding ??= await codeNoteDeterministic(input.message, resolver);

  // 3. the DRG, always from the grouper
  const group = await groupCoding(coding, input.version);

  // 4. receipt (counts only)
  let receipt: AgentReceipt = buildReceipt({
    entitiesRedacted: session.entitiesRedacted,
    clientPreredacted: session.clientPreredacted,
    freeTextFields: session.freeTextFields,
    clientAssertedDeidentified: input.deidentified,
    rehydration: engine === 'llm' ? { unresolved } : null,
  });
  const receiptId = await persistReceipt(db, principal, 'agent', receipt, {
    requestId: opts.requestId,
    inputChars: chars,
    durationMs: performance.now() - started,
  });
  if (receiptId) receipt = { ...receipt, receipt_id: receiptId };

  const response = composeResponse(coding, group, engine, note);
  log.info('agent', {
    request_id: opts.requestId,
    engine,
    model: llm?.model ?? null,
    calls: llm?.calls ?? 0,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    drg: group?.drg ?? null,
    ms: Math.round(performance.now() - started),
  });
  return {
    response,
    token_usage: usage,
    response_time_ms: Math.round(performance.now() - started),
    engine,
    engine_note: note,
    model: llm?.model ?? null,
    version: input.version,
    coding,
    group,
    redaction_receipt: receipt,
    llm,
    resolution: [...resolver.used],
    grouper_link: grouperLink(coding),
  };
}
