/**
 * Scoring of the engine against a gold corpus, following ../shared/eval/phi/score.py (overlap metrics, clinical false
 * positives, redacted-text leak check). Used by the dev-corpus regression test and scripts/score-redact.ts.
 * Offsets in gold files are code points; this module converts the engine's UTF-16 offsets before scoring.
 */
import fs from 'node:fs';
import { makeCodePointConverter, redactText, type RedactOptions } from '@/server/redact/session';
import { ENTITY_TYPES, type EntityType } from '@/server/redact/types';

export interface GoldNote {
  id: string;
  text: string;
  entities: Array<{ start: number; end: number; type: string; text: string }>;
  clinical_spans: Array<{ start: number; end: number; kind: string; text: string }>;
}

export interface Prediction {
  id: string;
  redacted_text: string;
  entities: Array<{ start: number; end: number; type: string }>;
}

export interface TypeScore {
  gold: number;
  pred: number;
  /** recall at >= 90 % character coverage by predictions of any type */
  recall: number;
  /** precision: >= 50 % of the prediction inside gold PHI, or it covers >= 90 % of a gold span */
  precision: number;
}

export interface CorpusScore {
  byType: Record<string, TypeScore>;
  overall: TypeScore;
  structuredRecall: number;
  clinicalHit: number;
  clinicalTotal: number;
  clinicalRate: number;
  leaks: number;
  leakExamples: string[];
  missed: string[];
  falsePositives: string[];
}

const RECALL_COVER = 0.9;
const PREC_COVER = 0.5;
const STRUCTURED: EntityType[] = ['MY_IC', 'PHONE', 'EMAIL', 'CARD_NUMBER', 'PASSPORT', 'MRN', 'BANK_ACCOUNT'];

export function loadGold(path: string): GoldNote[] {
  return fs
    .readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldNote);
}

/** Run the engine on gold notes; prediction offsets in code points, like the CLI. */
export function predict(gold: readonly GoldNote[], options: RedactOptions = {}): Prediction[] {
  return gold.map((g) => {
    const r = redactText(g.text, options);
    const cp = makeCodePointConverter(g.text);
    return { id: g.id, redacted_text: r.redacted_text, entities: r.entities.map((e) => ({ start: cp(e.start), end: cp(e.end), type: e.type })) };
  });
}

const B = '[0-9A-Za-z_\\u00C0-\\u024F]';
function countOcc(text: string, s: string): number {
  if (!s) return 0;
  const re = new RegExp(`(?<!${B})${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!${B})`, 'g');
  return (text.match(re) ?? []).length;
}
const SEP = /(?<=\d)[\s\-./()+]+(?=\d)/g;
const EXT = /\s*(?:ext\.?|Ext:?|EXT\.?|samb\.?|x)\s*\d+$/;

export function scoreCorpus(gold: readonly GoldNote[], preds: readonly Prediction[]): CorpusScore {
  const byId = new Map(preds.map((p) => [p.id, p]));
  const stats: Record<string, { gold: number; pred: number; rec: number; prec: number }> = {};
  const st = (t: string) => (stats[t] ??= { gold: 0, pred: 0, rec: 0, prec: 0 });
  let clinicalHit = 0;
  let clinicalTotal = 0;
  let leaks = 0;
  const leakExamples: string[] = [];
  const missed: string[] = [];
  const falsePositives: string[] = [];
  for (const g of gold) {
    const chars = Array.from(g.text); // code points
    const n = chars.length;
    const p = byId.get(g.id) ?? { id: g.id, redacted_text: g.text, entities: [] };
    const pcov = new Uint8Array(n);
    for (const e of p.entities) pcov.fill(1, e.start, e.end);
    const gcov = new Uint8Array(n);
    for (const e of g.entities) gcov.fill(1, e.start, e.end);
    for (const e of g.entities) {
      let c = 0;
      for (let k = e.start; k < e.end; k++) c += pcov[k];
      const s = st(e.type);
      s.gold++;
      if (c / (e.end - e.start) >= RECALL_COVER) s.rec++;
      else missed.push(`${g.id} ${e.type} ${JSON.stringify(e.text)}`);
    }
    for (const e of p.entities) {
      let inside = 0;
      for (let k = e.start; k < e.end; k++) inside += gcov[k];
      const ok =
        inside / (e.end - e.start) >= PREC_COVER ||
        g.entities.some(
          (ge) => ge.start < e.end && e.start < ge.end && (Math.min(e.end, ge.end) - Math.max(e.start, ge.start)) / (ge.end - ge.start) >= RECALL_COVER,
        );
      const s = st(e.type);
      s.pred++;
      if (ok) s.prec++;
      else falsePositives.push(`${g.id} ${e.type} ${JSON.stringify(chars.slice(e.start, e.end).join(''))}`);
    }
    for (const c of g.clinical_spans) {
      clinicalTotal++;
      let hit = false;
      for (let k = c.start; k < c.end && !hit; k++) if (pcov[k]) hit = true;
      if (hit) clinicalHit++;
    }
    // leak check (redacted-text mode of score.py)
    const masked = chars.slice();
    for (const e of g.entities) for (let k = e.start; k < e.end; k++) masked[k] = '\u0000';
    const maskedText = masked.join('');
    const red = p.redacted_text;
    const byStr = new Map<string, string[]>();
    for (const e of g.entities) byStr.set(e.text, [...(byStr.get(e.text) ?? []), e.type]);
    for (const [s, types] of byStr) {
      const leaked = Math.max(0, countOcc(red, s) - countOcc(maskedText, s));
      const d = (types[0] === 'PHONE' ? s.replace(EXT, '') : s).replace(/\D/g, '');
      let dleaked = 0;
      if (d.length >= 6) {
        const cnt = (t: string) => t.replace(SEP, '').split(d).length - 1;
        dleaked = Math.max(0, cnt(red) - cnt(maskedText));
      }
      const k = Math.max(leaked, dleaked);
      if (k > 0) {
        leaks += Math.min(k, types.length);
        if (leakExamples.length < 20) leakExamples.push(`${g.id} ${types[0]} ${JSON.stringify(s)}`);
      }
    }
  }
  const byType: Record<string, TypeScore> = {};
  let tg = 0;
  let tp = 0;
  let tr = 0;
  let tpp = 0;
  for (const t of [...ENTITY_TYPES, ...Object.keys(stats).filter((k) => !(ENTITY_TYPES as readonly string[]).includes(k))]) {
    const s = stats[t];
    if (!s) continue;
    byType[t] = { gold: s.gold, pred: s.pred, recall: s.gold ? s.rec / s.gold : NaN, precision: s.pred ? s.prec / s.pred : NaN };
    tg += s.gold;
    tp += s.pred;
    tr += s.rec;
    tpp += s.prec;
  }
  let sg = 0;
  let sr = 0;
  for (const t of STRUCTURED) {
    sg += stats[t]?.gold ?? 0;
    sr += stats[t]?.rec ?? 0;
  }
  return {
    byType,
    overall: { gold: tg, pred: tp, recall: tg ? tr / tg : NaN, precision: tp ? tpp / tp : NaN },
    structuredRecall: sg ? sr / sg : NaN,
    clinicalHit,
    clinicalTotal,
    clinicalRate: clinicalTotal ? clinicalHit / clinicalTotal : 0,
    leaks,
    leakExamples,
    missed,
    falsePositives,
  };
}
