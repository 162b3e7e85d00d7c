/**
 * The LLM engine's tools, as OpenAI function tools, and their implementations over our own cores:
 *   search_concepts — the search engine (ICD-10-CM or ICD-10-PCS), each hit verified against the grouper version;
 *   lookup_code     — validity, billability and title of a code in the grouper version;
 *   classify_drg    — the MS-DRG grouper on a candidate code set (CC/MCC per code, the DRG).
 * Tool results are data for the model, compact JSON; bad arguments come back as {"error": …} so the model can retry.
 */
import { z } from 'zod';
import { groupCase, lookupCode } from '../drg';
import type { ChatTool } from '../gateway/schema';
import { displayCode, type CodeResolver } from './resolve';

export const TOOL_NAMES = ['search_concepts', 'lookup_code', 'classify_drg'] as const;

export const AGENT_TOOLS: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'search_concepts',
      description:
        'Search ICD-10-CM diagnoses (kind "dx") or ICD-10-PCS procedures (kind "pr") by clinical words. Write the query as a code title would say it ("pneumonia, unspecified organism", "resection of appendix, percutaneous endoscopic approach"). Returns codes with titles and whether each is valid and billable in the grouper version.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Clinical words (no patient identifiers).' },
          kind: { type: 'string', enum: ['dx', 'pr'], description: 'dx = ICD-10-CM diagnoses (default), pr = ICD-10-PCS procedures.' },
          top_k: { type: 'integer', minimum: 1, maximum: 20, description: 'Number of results (default 8).' },
        },
        required: ['query'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'lookup_code',
      description:
        'Check one ICD-10-CM or ICD-10-PCS code in the grouper version: kind, valid, billable and title. A non-billable code is a category header: choose one of its billable children.',
      parameters: {
        type: 'object',
        properties: { code: { type: 'string', description: 'A code with or without the dot (I21.4 or I214).' } },
        required: ['code'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'classify_drg',
      description:
        'Group a candidate case with the MS-DRG grouper: principal diagnosis first, then secondary diagnoses, and procedures. Returns the DRG, MDC, type and which secondary diagnoses count as CC or MCC. Use it to check the effect of the codes; the final DRG is always computed by the grouper from your final codes.',
      parameters: {
        type: 'object',
        properties: {
          dx_codes: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 25 },
          pr_codes: { type: 'array', items: { type: 'string' }, maxItems: 25 },
          sex: { type: 'string', enum: ['F', 'M'] },
          alive: { type: 'boolean', description: 'Discharged alive (default true).' },
        },
        required: ['dx_codes'],
        additionalProperties: false,
      },
    },
  },
];

const SearchArgs = z.object({
  query: z.string().trim().min(1).max(300),
  kind: z.enum(['dx', 'pr']).default('dx'),
  top_k: z.number().int().min(1).max(20).default(8),
});
const LookupArgs = z.object({ code: z.string().trim().min(1).max(16) });
const ClassifyArgs = z.object({
  dx_codes: z.array(z.string().trim().min(1).max(16)).min(1).max(25),
  pr_codes: z.array(z.string().trim().min(1).max(16)).max(25).default([]),
  sex: z.enum(['F', 'M']).optional(),
  alive: z.boolean().default(true),
});

function parseArgs(raw: string): unknown {
  try {
    return raw.trim() ? JSON.parse(raw) : {};
  } catch {
    return null;
  }
}

/** Run one tool call; the answer is the JSON string sent back as the tool message. */
export async function runTool(name: string, rawArgs: string, ctx: { resolver: CodeResolver; version: string }): Promise<string> {
  const args = parseArgs(rawArgs);
  if (args === null) return JSON.stringify({ error: 'arguments are not valid JSON' });
  try {
    switch (name) {
      case 'search_concepts': {
        const a = SearchArgs.safeParse(args);
        if (!a.success) return JSON.stringify({ error: a.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ') });
        const hits = await ctx.resolver.candidates(a.data.query, a.data.kind, a.data.top_k);
        return JSON.stringify({
          version: ctx.version,
          results: hits.map((h) => ({ code: displayCode(h.code, h.kind), title: h.title, billable: h.billable, valid: h.valid })),
        });
      }
      case 'lookup_code': {
        const a = LookupArgs.safeParse(args);
        if (!a.success) return JSON.stringify({ error: 'code: a code is required' });
        const info = await lookupCode(ctx.version, a.data.code);
        return JSON.stringify({
          version: ctx.version,
          code: displayCode(info.code, info.kind),
          kind: info.kind,
          valid: info.valid,
          billable: info.billable,
          title: info.title,
        });
      }
      case 'classify_drg': {
        const a = ClassifyArgs.safeParse(args);
        if (!a.success) return JSON.stringify({ error: a.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ') });
        const r = await groupCase(ctx.version, { dx: a.data.dx_codes, pr: a.data.pr_codes, sex: a.data.sex, alive: a.data.alive }, { codes: 'lenient' });
        return JSON.stringify({
          version: r.version,
          drg: r.drg,
          description: r.description,
          mdc: r.mdc,
          type: r.type,
          return_code: r.return_code,
          severity: r.severity,
          severity_driver: r.severity_driver ? displayCode(r.severity_driver, 'dx') : null,
          diagnoses: r.dx.map((d) => ({
            code: displayCode(d.code, 'dx'),
            valid: d.valid,
            cc_mcc: d.principal ? null : d.severity,
            counted: !d.principal && (d.final_severity_flag === 'MCC' || d.final_severity_flag === 'CC'),
          })),
          procedures: r.pr.map((p) => ({ code: p.code, valid: p.valid, is_or: p.is_or })),
          warnings: r.warnings,
        });
      }
      default:
        return JSON.stringify({ error: `unknown tool '${name}'; the tools are ${TOOL_NAMES.join(', ')}` });
    }
  } catch (err) {
    return JSON.stringify({ error: err instanceof Error ? err.message.slice(0, 200) : 'tool failed' });
  }
}
