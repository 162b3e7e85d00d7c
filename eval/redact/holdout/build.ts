/**
 * Builds the held-out PHI corpus: `npx tsx eval/redact/holdout/build.ts`
 * Writes notes.jsonl (same schema as ../shared/eval/phi/dev.jsonl) and notes_meta.jsonl (role and naming tradition of
 * every gold entity, the split of every note). Deterministic (fixed seed). Ids: `ho-*` = tuning part (pool A
 * templates and names), `hb-*` = blind third (pool B), kept aside until the final check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { G } from './gen';
import { parseMarkup, Rng, type ParsedNote } from './lib';
import { People } from './names';
import { TEMPLATES_A, type Template } from './templates-a';
import { TEMPLATES_B } from './templates-b';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SEED = 20251121;
const B = '[0-9A-Za-z_\\u00C0-\\u024F]';
const CONNECTORS = new Set([
  'bin',
  'binti',
  'b.',
  'bt.',
  'bt',
  'bte',
  'a/l',
  'a/p',
  's/o',
  'd/o',
  'anak',
  'ak',
  'ak.',
  'haji',
  'mohd',
  'muhammad',
  'muhd',
  'nur',
  'nurul',
  'siti',
  'wan',
  'nik',
  'syed',
  'sharifah',
  'puteri',
  'md.',
  'bah',
  'yam',
  'wa',
  'ahmad',
]);

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function count(text: string, s: string): number {
  const re = new RegExp(`(?<!${B})${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!${B})`, 'g');
  return (text.match(re) ?? []).length;
}

/** Gold completeness: no PHI string and no name word occurs outside the gold PHI spans. */
function problems(n: ParsedNote): string[] {
  const out: string[] = [];
  const cps = Array.from(n.text);
  const masked = cps.slice();
  for (const e of n.entities) for (let k = e.start; k < e.end; k++) masked[k] = '\u0000';
  const maskedText = masked.join('');
  for (const e of n.entities) {
    if (cps.slice(e.start, e.end).join('') !== e.text) out.push(`offset mismatch ${e.text}`);
    if (count(maskedText, e.text)) out.push(`unannotated occurrence of ${JSON.stringify(e.text)}`);
    if (e.type === 'PERSON') {
      for (const w of e.text.split(/\s+/)) {
        if (w.length < 3 || CONNECTORS.has(w.toLowerCase())) continue;
        if (count(maskedText, w)) out.push(`name word ${JSON.stringify(w)} also outside PHI`);
      }
    }
  }
  for (const c of n.clinical_spans) if (cps.slice(c.start, c.end).join('') !== c.text) out.push(`clinical offset mismatch ${c.text}`);
  const all = [...n.entities.map((e) => [e.start, e.end]), ...n.clinical_spans.map((c) => [c.start, c.end])].sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < all.length; i++) if (all[i][0] < all[i - 1][1]) out.push('overlapping spans');
  return out;
}

function instantiate(t: Template, pool: 'A' | 'B', key: string): ParsedNote {
  for (let attempt = 0; attempt < 200; attempt++) {
    const r = new Rng(hash(`${SEED}:${key}:${attempt}`));
    const g = new G(r, new People(r, pool));
    const n = parseMarkup(t(g));
    if (!problems(n).length) return n;
  }
  throw new Error(`could not build a clean note for ${key}`);
}

function concat(parts: ParsedNote[]): ParsedNote {
  let text = '';
  let off = 0;
  const out: ParsedNote = { text: '', entities: [], clinical_spans: [], info: [] };
  for (const p of parts) {
    if (text) {
      const sep = '\n\n--- continuation sheet ---\n\n';
      text += sep;
      off += Array.from(sep).length;
    }
    for (const e of p.entities) out.entities.push({ ...e, start: e.start + off, end: e.end + off });
    for (const c of p.clinical_spans) out.clinical_spans.push({ ...c, start: c.start + off, end: c.end + off });
    for (const i of p.info) out.info.push({ ...i, start: i.start + off, end: i.end + off });
    text += p.text;
    off += Array.from(p.text).length;
  }
  out.text = text;
  return out;
}

function build(): void {
  const notes: Array<{ id: string; split: string; template: string; n: ParsedNote }> = [];
  const sets: Array<[string, 'A' | 'B', Array<[string, Template]>, number, number]> = [
    ['ho', 'A', TEMPLATES_A, 2, 3],
    ['hb', 'B', TEMPLATES_B, 2, 2],
  ];
  for (const [prefix, pool, templates, per, longs] of sets) {
    let k = 0;
    for (const [name, t] of templates) {
      for (let i = 0; i < per; i++) {
        const n = instantiate(t, pool, `${prefix}:${name}:${i}`);
        notes.push({ id: `${prefix}-${String(++k).padStart(3, '0')}`, split: pool === 'A' ? 'tune' : 'blind', template: name, n });
      }
    }
    // long continuation sheets (5-10k characters) from several templates of the same pool
    for (let L = 0; L < longs; L++) {
      const r = new Rng(hash(`${SEED}:${prefix}:long:${L}`));
      for (let attempt = 0; attempt < 50; attempt++) {
        const parts: ParsedNote[] = [];
        let len = 0;
        let j = 0;
        while (len < 5000 + L * 1500) {
          const [name, t] = templates[r.int(0, templates.length - 1)];
          const p = instantiate(t, pool, `${prefix}:long:${L}:${attempt}:${j++}:${name}`);
          parts.push(p);
          len += p.text.length;
        }
        const n = concat(parts);
        if (problems(n).length) {
          if (process.env.DEBUG) console.error(problems(n).slice(0, 3));
          continue;
        }
        notes.push({ id: `${prefix}-${String(++k).padStart(3, '0')}`, split: pool === 'A' ? 'tune' : 'blind', template: 'long_continuation', n });
        break;
      }
    }
  }
  const lines = notes.map(({ id, n }) => JSON.stringify({ id, text: n.text, entities: n.entities, clinical_spans: n.clinical_spans }));
  fs.writeFileSync(path.join(HERE, 'notes.jsonl'), lines.join('\n') + '\n');
  const meta = notes.map(({ id, split, template, n }) =>
    JSON.stringify({
      id,
      split,
      template,
      chars: Array.from(n.text).length,
      n_entities: n.entities.length,
      n_clinical: n.clinical_spans.length,
      entity_info: n.info,
    }),
  );
  fs.writeFileSync(path.join(HERE, 'notes_meta.jsonl'), meta.join('\n') + '\n');
  const byType: Record<string, number> = {};
  for (const { n } of notes) for (const e of n.entities) byType[e.type] = (byType[e.type] ?? 0) + 1;
  const tune = notes.filter((x) => x.split === 'tune').length;
  process.stdout.write(
    `${notes.length} notes (${tune} tune, ${notes.length - tune} blind); entities ${JSON.stringify(byType)}; clinical ${notes.reduce((a, x) => a + x.n.clinical_spans.length, 0)}\n`,
  );
}

build();
