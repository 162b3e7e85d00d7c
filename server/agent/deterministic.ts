/**
 * The deterministic engine: concept extraction (extract.ts) → codes through the search engine (resolve.ts) →
 * ICD-10-CM conventions (combination codes, "with" linkage, organism codes, unspecified vs specific) → principal
 * diagnosis → the coded case. No model, no network: it runs offline and costs nothing.
 *
 * Principal diagnosis, in order (documented in README.md):
 *   1. the first condition listed under a diagnosis heading (Diagnosis / Final diagnosis / Principal diagnosis /
 *      Cause of death) — the discharge diagnosis section is the physician's statement of what was treated;
 *   2. otherwise the condition in the reason-for-admission sentence ("admitted with…", "presented with…",
 *      "treated as…") or the presenting-complaint section, acute before chronic;
 *   3. otherwise the first current acute condition in the note;
 *   then sequencing rules: signs and symptoms only when no definitive diagnosis exists; sepsis present on admission
 *   before its localized infection (guideline I.C.1.d.4); hypertensive heart/kidney combination codes before the
 *   heart failure / CKD codes they carry (I.C.9.a); R65.2-, B95-B97, Z and external-cause codes never first.
 */
import { addAssumptions } from './assumptions';
import { affirmedIn, contextFor, extractConcepts, type Extraction, type Mention } from './extract';
import { ORGANISM_AS_CAUSE } from './phrasebook/diagnoses';
import { t, type DxConcept, type DxKind, type Organism, type PrConcept, type Target } from './phrasebook/types';
import { CodeResolver, displayCode, type Resolution } from './resolve';
import type { SectionKind } from './text';
import type { AgentAssumption, AgentCode, CodingResult, Evidence, ExcludedMention, ExclusionReason } from './types';

const FINAL_DX = new Set<SectionKind>(['diagnosis', 'secondary']);
const NO_PROCEDURES = new Set<SectionKind>([
  'pmh',
  'psh',
  'plan',
  'differential',
  'examination',
  'investigation',
  'medications',
  'allergies',
  'header',
  'family',
  'social',
]);

/** Lower is stronger: the physician's diagnosis list first, narrative last. */
function tierOf(section: SectionKind): number {
  switch (section) {
    case 'diagnosis':
      return 0;
    case 'secondary':
      return 1;
    case 'comorbidity':
    case 'procedures':
    case 'findings':
      return 2;
    case 'presenting':
    case 'course':
    case 'narrative':
      return 3;
    case 'pmh':
      return 4;
    default:
      return 5;
  }
}

interface Item {
  code: string;
  kind: 'dx' | 'pr';
  title: string;
  group: string;
  conceptId: string | null;
  conceptKind: DxKind | 'procedure' | 'free';
  chronic: boolean;
  infection: DxConcept['infection'];
  organism: Organism | null;
  tier: number;
  /** Order within the tier: section occurrence, list item, position. */
  order: [number, number, number];
  mentions: Mention[];
  free: Evidence | null;
  assertion: AgentCode['assertion'];
  rule: string | null;
  query: string | null;
  assumptions?: AgentAssumption[];
}

/** The codes of a target's alternative readings (only those that resolve to another code). */
async function resolveAssumptions(target: Target, kind: 'dx' | 'pr', code: string, resolver: CodeResolver): Promise<AgentAssumption[]> {
  const out: AgentAssumption[] = [];
  for (const a of target.assumptions ?? []) {
    const alternatives: AgentAssumption['alternatives'] = [];
    for (const alt of a.alternatives) {
      const r = await resolver.resolve(alt.target, kind);
      if (r && r.code !== code && !alternatives.some((x) => x.code === r.code))
        alternatives.push({ label: alt.label, code: r.code, display: displayCode(r.code, kind), title: r.title });
    }
    out.push({ about: a.about, assumed: a.assumed, alternatives });
  }
  return out;
}

type Decision =
  { use: 'current' | 'past'; assertion: AgentCode['assertion'] } | { use: 'exclude'; reason: ExclusionReason; cue: string | null; silent?: boolean };

function dxDecision(m: Mention, ex: Extraction): Decision {
  const dx = m.concept as DxConcept;
  const a = m.assertion;
  const sec = m.segment.section;
  switch (a.assertion) {
    case 'ignored':
      return { use: 'exclude', reason: 'finding', cue: null, silent: true };
    case 'negated':
    case 'family':
    case 'hypothetical':
      return { use: 'exclude', reason: a.assertion, cue: a.cue };
    case 'symptom_context':
      return { use: 'exclude', reason: 'symptom', cue: a.cue };
    case 'finding':
      return { use: 'exclude', reason: 'finding', cue: m.segment.label };
    default:
      break;
  }
  if (dx.kind === 'status') return { use: 'current', assertion: a.history ? 'history' : 'status' };
  if (a.assertion === 'uncertain' && !FINAL_DX.has(sec)) return { use: 'exclude', reason: 'uncertain', cue: a.cue };
  if (a.history && !dx.chronic) return dx.past ? { use: 'past', assertion: 'history' } : { use: 'exclude', reason: 'history', cue: a.cue };
  if (dx.kind === 'symptom' && !FINAL_DX.has(sec)) return { use: 'exclude', reason: 'symptom', cue: null };
  if (dx.kind === 'deficit' && !['stroke', 'tia', 'ich', 'sah'].some((id) => ex.present.has(id))) return { use: 'exclude', reason: 'symptom', cue: null };
  return { use: 'current', assertion: a.assertion === 'uncertain' ? 'uncertain' : 'present' };
}

/** "post-PCI", "after the TURP": the words refer to a procedure described elsewhere (or done before). */
const PROC_REFERENCE_BEFORE = /\b(?:post|after)[- ]?(?:the\s+)?$/;
const PROC_HISTORY_BEFORE = /\b(?:following|after|post|s\/p|status post|since|previous|prior)\s*(?:a |an |the |recent )?(?:[a-z-]+ ){0,2}$/;

function prDecision(m: Mention, ex: Extraction): Decision {
  const a = m.assertion;
  if (a.assertion === 'ignored') return { use: 'exclude', reason: 'finding', cue: null, silent: true };
  if (a.assertion === 'negated' || a.assertion === 'family' || a.assertion === 'hypothetical') return { use: 'exclude', reason: a.assertion, cue: a.cue };
  if (a.assertion === 'uncertain') return { use: 'exclude', reason: 'uncertain', cue: a.cue };
  if (a.history) return { use: 'exclude', reason: 'history', cue: a.cue };
  const sec = m.segment.section;
  if (NO_PROCEDURES.has(sec))
    return { use: 'exclude', reason: sec === 'plan' ? 'hypothetical' : sec === 'pmh' || sec === 'psh' ? 'history' : 'finding', cue: null };
  if (PROC_REFERENCE_BEFORE.test(ex.layout.lower.slice(Math.max(m.segment.start, m.start - 12), m.start)))
    return { use: 'exclude', reason: 'history', cue: 'post' };
  if (FINAL_DX.has(sec) && PROC_HISTORY_BEFORE.test(ex.layout.lower.slice(Math.max(m.segment.start, m.start - 40), m.start)))
    return { use: 'exclude', reason: 'history', cue: 'following' };
  return { use: 'current', assertion: 'present' };
}

function toEvidence(m: Mention): Evidence {
  return { text: m.text, start: m.start, end: m.end, section: m.segment.section };
}

function targetsOf(out: Target | Target[] | null): Target[] {
  return out === null ? [] : Array.isArray(out) ? out : [out];
}

/** Free text of a diagnosis-list item that no concept matched, cleaned for searching. */
function cleanItem(s: string): string {
  return s
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\b(?:secondary to|due to|complicated by|with|likely|probable|possible|resolved|improving|on|since)\b.*$/i, ' ')
    .replace(/\s[-–—]\s.*$|:.*$/, ' ')
    .replace(/[^A-Za-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const SPECIFIC_BLEED = /^(?:K2[5-8][046]|K2971|K2931|K2951|K2961|K2981|K2991|K57[0-9][13]|I8[5][01]1|K31811|K5521|K625|K92(?:81)|K22(?:11|6|8)|K920?$)/;
const INFECTION_PDX =
  /^(?:A|B[0-8]|J1[2-8]|J2[0-2]|J440|J69|J85|J86|N39|N10|N11|N30|N34|N41|N45|N70|N71|N73|L0[0-8]|T814|T835|T827|T847|M86|M00|K8[03]|K35|K572|K65|K61|K63|K750|G0[0-4]|I33|I30)/;
const NEVER_FIRST = /^(?:R65|B9[5-7]|Z|[V-Y]|T3[6-9].*5|T4[0-9].*5|T50.*5)/;

export async function codeNoteDeterministic(text: string, resolver: CodeResolver): Promise<CodingResult> {
  const ex = extractConcepts(text);
  const excluded: ExcludedMention[] = [];
  const items = new Map<string, Item>();
  const rationale: string[] = [];

  const exclude = (m: Mention, reason: ExclusionReason, cue: string | null) => {
    excluded.push({ text: m.text, start: m.start, end: m.end, concept: m.concept.id, kind: m.kind, reason, cue, section: m.segment.section });
  };

  const addItem = (res: Resolution, base: Omit<Item, 'code' | 'kind' | 'title' | 'query'>) => {
    const hit = items.get(res.code);
    if (hit) {
      hit.mentions.push(...base.mentions);
      const better = base.tier < hit.tier || (base.tier === hit.tier && cmpOrder(base.order, hit.order) < 0);
      if (better) {
        hit.tier = base.tier;
        hit.order = base.order;
      }
      if (hit.assertion !== 'present' && base.assertion === 'present') hit.assertion = 'present';
      hit.organism ??= base.organism;
      return;
    }
    items.set(res.code, { ...base, code: res.code, kind: res.kind, title: res.title, query: res.query });
  };

  // 1. mentions → decisions → targets → codes
  const coveredSegments = new Set<number>();
  for (const m of ex.mentions) {
    const decision = m.kind === 'dx' ? dxDecision(m, ex) : prDecision(m, ex);
    // an item counts as read when a concept in it was coded or deliberately not coded; otherwise its words go to the
    // search engine as free text (step 2)
    if (m.kind === 'dx' && decision.use === 'exclude') coveredSegments.add(m.segment.start);
    if (decision.use === 'exclude') {
      if (!decision.silent) exclude(m, decision.reason, decision.cue);
      continue;
    }
    const dx = m.kind === 'dx' ? (m.concept as DxConcept) : null;
    const ctx = contextFor(m, ex);
    const raw = decision.use === 'past' ? (dx?.past ?? null) : m.kind === 'dx' ? dx!.target(ctx) : (m.concept as PrConcept).target(ctx);
    // null: the concept is covered by another code (thrombocytopenia in dengue); []: not this concept's to code
    // (an abscess of an organ), so the item's words go to the search engine
    if (raw === null) {
      if (m.kind === 'dx') coveredSegments.add(m.segment.start);
      if (m.kind === 'dx' && dx?.kind !== 'status') exclude(m, 'integral', null);
      continue;
    }
    const targets = targetsOf(raw);
    if (!targets.length) continue;
    let resolvedAny = false;
    for (const target of targets) {
      const res = await resolver.resolve(target, m.kind);
      if (!res) continue;
      resolvedAny = true;
      const assumptions = await resolveAssumptions(target, m.kind, res.code, resolver);
      if (m.kind === 'dx') coveredSegments.add(m.segment.start);
      addItem(res, {
        group: decision.use === 'past' ? `${dx?.group ?? m.concept.id}:past` : m.kind === 'pr' ? `pr:${m.concept.id}` : (dx?.group ?? m.concept.id),
        conceptId: m.concept.id,
        conceptKind: m.kind === 'pr' ? 'procedure' : decision.use === 'past' ? 'status' : (dx?.kind ?? 'condition'),
        chronic: !!dx?.chronic,
        infection: dx?.infection,
        organism: m.organism,
        tier: tierOf(m.segment.section),
        order: [m.segment.sectionIndex, m.segment.item, m.start],
        mentions: [m],
        free: null,
        assertion: decision.assertion,
        rule: null,
        ...(assumptions.length ? { assumptions } : {}),
      });
    }
    if (!resolvedAny) exclude(m, 'unresolved', null);
  }

  // 2. diagnosis-list items that no concept matched: the search engine on the item's words
  for (const seg of ex.layout.segments) {
    if (!(FINAL_DX.has(seg.section) || seg.section === 'comorbidity') || coveredSegments.has(seg.start)) continue;
    const raw = text.slice(seg.start, seg.end);
    const q = cleanItem(raw);
    const n = q.split(' ').filter((w) => w.length > 2).length;
    if (n === 0 || (n === 1 && q.length < 5) || q.split(' ').length > 8) continue;
    const res = await resolver.resolveFreeText(q, 'dx');
    if (!res) continue;
    addItem(res, {
      group: `free:${res.code}`,
      conceptId: null,
      conceptKind: 'free',
      chronic: seg.section === 'comorbidity',
      infection: undefined,
      organism: null,
      tier: tierOf(seg.section),
      order: [seg.sectionIndex, seg.item, seg.start],
      mentions: [],
      free: { text: raw.trim(), start: seg.start, end: seg.end, section: seg.section },
      assertion: 'present',
      rule: null,
    });
  }

  // 3. one condition, one code: a group's strongest tier decides (a narrative "heart failure" does not add I50.9
  //    next to the diagnosis list's I50.23)
  const all = [...items.values()];
  const minTier = new Map<string, number>();
  for (const it of all) if (it.kind === 'dx') minTier.set(it.group, Math.min(minTier.get(it.group) ?? 9, it.tier));
  for (const it of all) {
    if (it.kind !== 'dx' || it.tier <= (minTier.get(it.group) ?? 9)) continue;
    const stronger = all.filter((o) => o !== it && o.kind === 'dx' && o.group === it.group && o.tier < it.tier && items.has(o.code));
    if (stronger.length) {
      items.delete(it.code);
      stronger[0]!.mentions.push(...it.mentions);
    }
  }

  await applyRules(items, ex, resolver, rationale);

  // 4. principal diagnosis
  const dxItems = [...items.values()].filter((i) => i.kind === 'dx');
  const firstMention = (i: Item) => i.mentions.slice().sort((a, b) => a.start - b.start)[0];
  const byStrength = (a: Item, b: Item) => a.tier - b.tier || cmpOrder(a.order, b.order);
  const eligible = dxItems.filter((i) => !NEVER_FIRST.test(i.code) && i.conceptKind !== 'deficit' && i.conceptKind !== 'status');
  const definitive = eligible.filter((i) => i.conceptKind !== 'symptom');
  let principal: Item | null = null;
  let reason = '';
  // the first listed diagnosis is the principal; if its words could not be coded at all, no other code is promoted
  const firstItem = ex.layout.segments.find((s) => s.section === 'diagnosis');
  const firstUncoded =
    firstItem &&
    !ex.mentions.some((m) => m.kind === 'dx' && m.start >= firstItem.start && m.end <= firstItem.end) &&
    ![...items.values()].some((i) => i.free?.start === firstItem.start) &&
    /[A-Za-z]{4,}/.test(text.slice(firstItem.start, firstItem.end));
  const tier0 = definitive.filter((i) => i.tier === 0).sort(byStrength);
  if (firstUncoded) {
    reason = `the first listed diagnosis, “${text.slice(firstItem.start, firstItem.end).trim().slice(0, 80)}”, could not be resolved to a billable ICD-10-CM code; no other code is promoted to principal`;
  } else if (tier0.length) {
    principal = tier0[0]!;
    reason = `first condition under '${headingOf(principal) ?? 'Diagnosis'}'`;
  }
  if (!principal && !firstUncoded) {
    // a sign or symptom written as the discharge diagnosis ("Atypical chest pain - ACS ruled out")
    const sym0 = eligible.filter((i) => i.tier === 0 && i.conceptKind === 'symptom').sort(byStrength);
    if (sym0.length) {
      principal = sym0[0]!;
      reason = `the sign or symptom listed under '${headingOf(principal) ?? 'Diagnosis'}': no definitive diagnosis was established (ICD-10-CM II.A)`;
    }
  }
  if (!principal && !firstUncoded) {
    const admitting = definitive
      .filter((i) => i.mentions.some((m) => m.segment.section === 'presenting' || ADMIT.test(sentenceOf(ex, m))))
      .sort((a, b) => Number(a.chronic) - Number(b.chronic) || (firstMention(a)?.start ?? 0) - (firstMention(b)?.start ?? 0));
    if (admitting.length) {
      principal = admitting[0]!;
      reason = 'the condition named as the reason for admission';
    }
  }
  if (!principal && !firstUncoded) {
    const rest = definitive.slice().sort((a, b) => Number(a.chronic) - Number(b.chronic) || byStrength(a, b));
    if (rest.length) {
      principal = rest[0]!;
      reason = principal.chronic ? 'the first current condition documented (no acute condition found)' : 'the first acute condition documented';
    }
  }
  if (!principal && !firstUncoded) {
    const sym = eligible.filter((i) => i.conceptKind === 'symptom').sort(byStrength);
    if (sym.length) {
      principal = sym[0]!;
      reason = 'a sign or symptom: no definitive diagnosis was documented';
    }
  }
  if (principal && principal.conceptKind === 'symptom' && definitive.length === 0)
    reason = `${reason || 'first listed'}; no definitive diagnosis documented (ICD-10-CM II.A)`;

  // sequencing: sepsis present on admission before the localized infection
  if (principal) {
    const sepsis = dxItems.find((i) => /^A4[01]/.test(i.code));
    if (sepsis && sepsis !== principal && INFECTION_PDX.test(principal.code) && sepsisPresentOnAdmission(sepsis, ex)) {
      rationale.push(
        `${displayCode(sepsis.code, 'dx')} is sequenced before ${displayCode(principal.code, 'dx')}: sepsis present on admission with a localized infection is coded first (ICD-10-CM I.C.1.d.4).`,
      );
      sepsis.rule = 'sepsis present on admission sequenced first';
      principal = sepsis;
      reason = 'sepsis present on admission, sequenced before its localized infection';
    }
    // hypertensive heart / kidney combinations come before the heart failure / CKD they include
    if (/^I50/.test(principal.code) || /^N18/.test(principal.code)) {
      const combo = dxItems.find((i) => (/^I50/.test(principal!.code) ? /^I1[13]/ : /^I1[23]/).test(i.code));
      if (combo) {
        rationale.push(
          `${displayCode(combo.code, 'dx')} is sequenced before ${displayCode(principal.code, 'dx')}: the hypertensive combination code comes first, with the ${/^I50/.test(principal.code) ? 'heart failure' : 'CKD'} code as an additional code (ICD-10-CM I.C.9.a).`,
        );
        principal = combo;
        reason = `${reason}; hypertensive combination code sequenced first`;
      }
    }
  }

  // symptoms are not coded next to a definitive diagnosis
  for (const i of dxItems) {
    if (i !== principal && i.conceptKind === 'symptom') {
      items.delete(i.code);
      for (const m of i.mentions) exclude(m, 'symptom', null);
    }
  }

  const secondary = [...items.values()]
    .filter((i) => i.kind === 'dx' && i !== principal)
    .sort((a, b) => sdxRank(a, principal) - sdxRank(b, principal) || byStrength(a, b))
    .slice(0, 24);
  const procedures = [...items.values()]
    .filter((i) => i.kind === 'pr')
    .sort(byStrength)
    .slice(0, 25);

  const toCode = (i: Item, role: AgentCode['role']): AgentCode => ({
    code: i.code,
    display: displayCode(i.code, i.kind),
    kind: i.kind,
    role,
    title: i.title,
    cc_mcc: null,
    is_or: null,
    concept: i.conceptId,
    assertion: i.assertion,
    rule: i.rule,
    evidence: dedupeEvidence([...i.mentions.map(toEvidence), ...(i.free ? [i.free] : [])]),
    ...(i.assumptions?.length ? { assumptions: i.assumptions } : {}),
  });

  if (principal) {
    const ev = firstMention(principal);
    rationale.unshift(
      `Principal diagnosis ${displayCode(principal.code, 'dx')} (${principal.title}): ${reason}${ev ? ` — “${ev.text}”` : principal.free ? ` — “${principal.free.text}”` : ''}.`,
    );
  } else {
    rationale.unshift(
      firstUncoded
        ? `No principal diagnosis: ${reason}. Code it on the Group a case page.`
        : 'No principal diagnosis could be identified: no current condition was found in the text.',
    );
  }
  const traps = excluded.filter(
    (e) =>
      e.kind === 'dx' && (e.reason === 'negated' || e.reason === 'history' || e.reason === 'family' || e.reason === 'uncertain' || e.reason === 'hypothetical'),
  );
  if (traps.length) {
    const seen = new Set<string>();
    const parts: string[] = [];
    for (const e of traps) {
      const k = `${e.text.toLowerCase()}|${e.reason}`;
      if (seen.has(k)) continue;
      seen.add(k);
      parts.push(`${e.text} (${e.reason}${e.cue ? `: “${e.cue}”` : ''})`);
    }
    rationale.push(`Not coded: ${parts.slice(0, 12).join('; ')}${parts.length > 12 ? '; …' : ''}.`);
  }

  const coding: CodingResult = {
    principal: principal ? toCode(principal, 'principal') : null,
    secondary: secondary.map((i) => toCode(i, 'secondary')),
    procedures: procedures.map((i) => toCode(i, 'procedure')),
    excluded,
    rejected: [],
    patient: {
      sex: ex.sex.value,
      sex_evidence: ex.sex.evidence,
      alive: ex.alive.value,
      alive_evidence: ex.alive.evidence,
      discharge_status: ex.dischargeStatus,
    },
    principal_reason: reason,
    rationale,
  };
  // what the note does not say that decides a code: the phrasebook's own (stents) and the table-driven axes
  return addAssumptions(coding, resolver.version, text);
}

const ADMIT =
  /\b(?:admitted|admission|presented|presenting|presents|came in|brought in|treated as|treated for|managed as|diagnosed (?:with|as)|found to have|referred (?:for|with))\b/i;

function sentenceOf(ex: Extraction, m: Mention): string {
  return ex.layout.text.slice(m.clauseStart, m.clauseEnd);
}

function headingOf(i: Item): string | null {
  return i.mentions[0]?.segment.heading ?? null;
}

function cmpOrder(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Secondary order: combination partners right after the principal, then the lists, then the rest. */
function sdxRank(i: Item, principal: Item | null): number {
  if (principal && /^I1[123]/.test(principal.code) && /^(?:I50|N18)/.test(i.code)) return -1;
  return 0;
}

function sepsisPresentOnAdmission(sepsis: Item, ex: Extraction): boolean {
  return sepsis.mentions.some((m) => {
    const s = ex.layout.text.slice(m.clauseStart, m.clauseEnd);
    if (
      /\b(?:developed|hospital[- ]acquired|during (?:the |this )?(?:admission|stay)|in (?:the )?ward|post-?op(?:erative(?:ly)?)?|day \d+ of admission|nosocomial)\b/i.test(
        s,
      )
    )
      return false;
    return FINAL_DX.has(m.segment.section) || m.segment.section === 'presenting' || ADMIT.test(s) || m.segment.section === 'narrative';
  });
}

function dedupeEvidence(list: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return list
    .filter((e) => {
      const k = `${e.start}:${e.end}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => (a.start ?? 0) - (b.start ?? 0))
    .slice(0, 8);
}

/* ---------------- coding conventions ---------------- */

async function replaceWith(items: Map<string, Item>, from: Item[], target: Target, resolver: CodeResolver, rule: string): Promise<Item | null> {
  const res = await resolver.resolve(target, 'dx');
  if (!res || !from.length) return null;
  const base = from.slice().sort((a, b) => a.tier - b.tier || cmpOrder(a.order, b.order))[0]!;
  for (const f of from) items.delete(f.code);
  const existing = items.get(res.code);
  const merged: Item = existing ?? { ...base, code: res.code, title: res.title, query: res.query, conceptId: base.conceptId, mentions: [], rule };
  merged.mentions.push(...from.flatMap((f) => f.mentions));
  merged.rule = rule;
  merged.tier = Math.min(merged.tier, base.tier);
  items.set(res.code, merged);
  return merged;
}

async function addCode(
  items: Map<string, Item>,
  target: Target,
  like: Item,
  resolver: CodeResolver,
  rule: string,
  conceptKind: Item['conceptKind'] = 'condition',
): Promise<Item | null> {
  const res = await resolver.resolve(target, 'dx');
  if (!res || items.has(res.code)) return items.get(res?.code ?? '') ?? null;
  const it: Item = {
    ...like,
    code: res.code,
    kind: 'dx',
    title: res.title,
    query: res.query,
    group: `rule:${res.code}`,
    conceptId: null,
    conceptKind,
    infection: undefined,
    organism: null,
    mentions: [...like.mentions],
    rule,
    free: like.free,
    assertion: like.assertion === 'uncertain' ? 'uncertain' : 'present',
  };
  items.set(res.code, it);
  return it;
}

const NSAID =
  /\b(?:(?:secondary to|due to|induced by|from|caused by|related to)\s+(?:[a-z-]+\s+){0,4}(?:nsaids?|diclofenac|ibuprofen|naproxen|mefenamic acid|celecoxib|etoricoxib|aspirin overuse)|nsaids?[- ](?:induced|related|associated))\b/;

async function applyRules(items: Map<string, Item>, ex: Extraction, resolver: CodeResolver, rationale: string[]): Promise<void> {
  const list = () => [...items.values()].filter((i) => i.kind === 'dx');
  const find = (re: RegExp) => list().filter((i) => re.test(i.code));
  const note = ex.layout.lower;

  // hypertension with heart failure and/or CKD: presumed linked (ICD-10-CM I.C.9.a)
  const htn = find(/^I10$/);
  if (htn.length) {
    const hf = find(/^I50/);
    const ckd = find(/^N18/);
    const stage5 = ckd.some((c) => /^N18[56]/.test(c.code));
    let target: Target | null = null;
    let what = '';
    if (hf.length && ckd.length) {
      target = stage5
        ? t('hypertensive heart and chronic kidney disease with heart failure and with stage 5 chronic kidney disease, or end stage renal disease', 'I13.2')
        : t(
            'hypertensive heart and chronic kidney disease with heart failure and stage 1 through stage 4 chronic kidney disease, or unspecified chronic kidney disease',
            'I13.0',
          );
      what = 'hypertension with heart failure and chronic kidney disease';
    } else if (ckd.length) {
      target = stage5
        ? t('hypertensive chronic kidney disease with stage 5 chronic kidney disease or end stage renal disease', 'I12.0')
        : t('hypertensive chronic kidney disease with stage 1 through stage 4 chronic kidney disease, or unspecified chronic kidney disease', 'I12.9');
      what = 'hypertension with chronic kidney disease';
    } else if (hf.length) {
      target = t('hypertensive heart disease with heart failure', 'I11.0');
      what = 'hypertension with heart failure';
    }
    if (target) {
      const it = await replaceWith(items, htn, target, resolver, `${what}: presumed linked (ICD-10-CM I.C.9.a)`);
      if (it)
        rationale.push(
          `I10 → ${displayCode(it.code, 'dx')}: ${what} are presumed linked, so the combination code replaces I10; the ${[hf.length ? 'heart failure' : '', ckd.length ? 'CKD stage' : ''].filter(Boolean).join(' and ')} code${hf.length && ckd.length ? 's stay' : ' stays'} as additional code${hf.length && ckd.length ? 's' : ''} (ICD-10-CM I.C.9.a).`,
        );
    }
  }

  // coronary artery disease with angina: the I25.11- combination code replaces I20.- (ICD-10-CM I.C.9.b)
  const angina = find(/^I20[089]$/);
  const cad = find(/^I251/);
  if (angina.length && cad.length) {
    const unstable = angina.some((a) => a.code === 'I200');
    const it = await replaceWith(
      items,
      [...cad, ...angina],
      unstable
        ? t('atherosclerotic heart disease of native coronary artery with unstable angina pectoris', 'I25.110')
        : t('atherosclerotic heart disease of native coronary artery with unspecified angina pectoris', 'I25.119'),
      resolver,
      'coronary artery disease with angina',
    );
    if (it)
      rationale.push(
        `${[...angina, ...cad].map((a) => displayCode(a.code, 'dx')).join(' + ')} → ${displayCode(it.code, 'dx')}: coronary artery disease with angina is one combination code (ICD-10-CM I.C.9.b).`,
      );
  }

  // an exploratory laparotomy/laparoscopy is not coded when a definitive procedure used the same approach (PCS B3.11a)
  const prs = [...items.values()].filter((i) => i.kind === 'pr');
  for (const insp of prs.filter((i) => /^0WJG/.test(i.code))) {
    if (prs.some((o) => o !== insp && /^0[DFTUVW]/.test(o.code) && !/^0WJ/.test(o.code) && o.code[4] === insp.code[4])) items.delete(insp.code);
  }

  // calculus with hydronephrosis → N13.2 (Excludes1 at N20)
  const stones = find(/^N20[0-2]$/);
  if (stones.length && affirmedIn(note, /\bhydro(?:uretero)?nephrosis\b/)) {
    const hydro = find(/^N133/);
    const it = await replaceWith(
      items,
      [...stones, ...hydro],
      t('hydronephrosis with renal and ureteral calculous obstruction', 'N13.2'),
      resolver,
      'calculus with hydronephrosis',
    );
    if (it)
      rationale.push(
        `${stones.map((s) => displayCode(s.code, 'dx')).join(', ')} + hydronephrosis → N13.2: a urinary calculus with hydronephrosis is coded N13.2 (Excludes1 note at N20).`,
      );
  }

  // a hernia "with obstruction" includes the intestinal obstruction it causes (K40.3-, K41.3-, K42.0, K43.0 …)
  if (find(/^(?:K40[03]|K41[03]|K420|K430|K433|K436|K440|K45[0]|K46[0])/).length) {
    for (const i of find(/^K56(?:6|69)/)) {
      items.delete(i.code);
      rationale.push(`${displayCode(i.code, 'dx')} not coded: the hernia code "with obstruction" includes it.`);
    }
  }

  // gallstones with cholecystitis: the combination code replaces "calculus without cholecystitis"
  if (find(/^K80[01]/).length) for (const i of find(/^K802/)) items.delete(i.code);

  // GI bleeding with a documented source: the source code (with hemorrhage) replaces K92.0-K92.2
  if (list().some((i) => SPECIFIC_BLEED.test(i.code) && !/^K92/.test(i.code))) {
    for (const i of find(/^K92[012]$/)) {
      items.delete(i.code);
      rationale.push(`${displayCode(i.code, 'dx')} not coded: the bleeding source is coded with hemorrhage.`);
    }
  }

  // COVID-19 pneumonia
  if (find(/^U071$/).length) {
    const pn = find(/^(?:J189|J181|J180|J129|J22)$/);
    if (pn.length) await replaceWith(items, pn, t('pneumonia due to coronavirus disease 2019', 'J12.82'), resolver, 'pneumonia due to COVID-19');
  }

  // influenza with pneumonia: the J10.0-/J11.0- combination code carries the pneumonia
  if (find(/^J1[01]0/).length) for (const i of find(/^(?:J18[0189]|J129|J22)$/)) items.delete(i.code);

  // heart failure carries its pleural effusions unless they were drained
  if (find(/^I50|^I1[13]/).length && ![...items.values()].some((i) => i.kind === 'pr' && /^0W9[9B]/.test(i.code)))
    for (const i of find(/^J918$/)) items.delete(i.code);

  // organism as the cause of an infection whose code does not name it (B95-B96)
  for (const inf of list().filter((i) => i.infection === 'additional' && i.organism)) {
    const org = inf.organism!;
    const sepsisSame = list().some((i) => i.infection === 'specific' && i.organism === org && !/^A419$/.test(i.code) && /^A4/.test(i.code));
    if (sepsisSame || (org === 'hpylori' && !/^K2[5-8]/.test(inf.code))) continue;
    const added = await addCode(items, ORGANISM_AS_CAUSE[org], inf, resolver, `organism of ${displayCode(inf.code, 'dx')}`, 'status');
    if (added) added.tier = inf.tier;
  }

  // NSAID as the cause of the condition → adverse effect code
  const nsaidMatch = NSAID.exec(note);
  if (nsaidMatch && !/\b(?:no|not)\s+(?:[a-z]+\s+){0,3}$/.test(note.slice(Math.max(0, nsaidMatch.index - 20), nsaidMatch.index))) {
    const cond = list()
      .filter((i) => i.mentions.some((m) => Math.abs(m.start - nsaidMatch.index) < 200))
      .sort((a, b) => a.tier - b.tier)[0];
    if (cond) {
      const added = await addCode(
        items,
        t('adverse effect of other nonsteroidal anti-inflammatory drugs [nsaid], initial encounter', 'T39.395A'),
        cond,
        resolver,
        'NSAID as the cause',
        'status',
      );
      if (added)
        rationale.push(
          `${displayCode(added.code, 'dx')}: the NSAID is documented as the cause of ${displayCode(cond.code, 'dx')} (adverse effect in correct use).`,
        );
    }
  }

  // BMI with obesity/overweight (adult)
  const obese = find(/^E66/);
  const bmi = /\bbmi\s*(?:of|=|:)?\s*(\d{2}(?:\.\d)?)/.exec(note);
  if (obese.length && bmi) {
    const v = Number(bmi[1]);
    const target =
      v >= 70
        ? t('body mass index [bmi] 70 or greater, adult', 'Z68.45')
        : v >= 60
          ? t('body mass index [bmi] 60.0-69.9, adult', 'Z68.44')
          : v >= 50
            ? t('body mass index [bmi] 50.0-59.9, adult', 'Z68.43')
            : v >= 45
              ? t('body mass index [bmi] 45.0-49.9, adult', 'Z68.42')
              : v >= 40
                ? t('body mass index [bmi] 40.0-44.9, adult', 'Z68.41')
                : v >= 25
                  ? t(`body mass index [bmi] ${Math.floor(v)}.0-${Math.floor(v)}.9, adult`, `Z68.${Math.floor(v)}`)
                  : null;
    if (target) await addCode(items, target, obese[0]!, resolver, 'BMI documented with obesity', 'status');
  }

  // a specific code makes the unspecified code of the same category redundant (I50.9 beside I50.23, N18.9 beside N18.4)
  const byCat = new Map<string, Item[]>();
  for (const i of list()) if (!/^(?:B9[5-7]|Z|T|S|[V-Y])/.test(i.code)) byCat.set(i.code.slice(0, 3), [...(byCat.get(i.code.slice(0, 3)) ?? []), i]);
  for (const group of byCat.values()) {
    if (group.length < 2) continue;
    const vague = group.filter((i) => /\bunspecified\b|without complications/i.test(i.title));
    const specific = group.filter((i) => !vague.includes(i));
    if (!specific.length) continue;
    for (const v of vague) {
      items.delete(v.code);
      specific[0]!.mentions.push(...v.mentions);
    }
  }
  // diabetes: nephropathy is included in "with diabetic chronic kidney disease"
  for (const p of ['E10', 'E11', 'E13', 'E09']) if (items.has(`${p}22`)) items.delete(`${p}21`);
}
