/**
 * Statistics of the held-out corpus: `npx tsx eval/redact/holdout/stats.ts`
 * Entities per type and split, note styles, and how many PERSON mentions use names that are NOT in the engine's
 * gazetteers (a mention counts as out-of-gazetteer when at least one of its name words is in no name list).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { F, getGazetteer, normWord } from '@/server/redact/gazetteer';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NAME = F.GIVEN | F.SURNAME | F.CN_SURNAME | F.CN_SYLLABLE | F.PREFIX;
const lex = getGazetteer();
const meta = new Map<string, { split: string; template: string }>();
for (const l of fs.readFileSync(path.join(HERE, 'notes_meta.jsonl'), 'utf8').split('\n').filter(Boolean)) {
  const m = JSON.parse(l) as { id: string; split: string; template: string };
  meta.set(m.id, m);
}
const rows: Record<
  string,
  { notes: number; templates: Set<string>; types: Record<string, number>; person: number; anyOov: number; allOov: number; chars: number }
> = {};
for (const l of fs.readFileSync(path.join(HERE, 'notes.jsonl'), 'utf8').split('\n').filter(Boolean)) {
  const n = JSON.parse(l) as { id: string; text: string; entities: Array<{ type: string; text: string }> };
  const split = meta.get(n.id)?.split ?? '?';
  for (const key of [split, 'all']) {
    const r = (rows[key] ??= { notes: 0, templates: new Set(), types: {}, person: 0, anyOov: 0, allOov: 0, chars: 0 });
    r.notes++;
    r.chars += n.text.length;
    r.templates.add(meta.get(n.id)?.template ?? '?');
    for (const e of n.entities) {
      r.types[e.type] = (r.types[e.type] ?? 0) + 1;
      if (e.type !== 'PERSON') continue;
      const words = e.text
        .split(/\s+/)
        .map(normWord)
        .filter((w) => w.length > 1 && !(lex.flags(w) & F.CONNECTOR));
      if (!words.length) continue;
      const oov = words.filter((w) => !(lex.flags(w) & NAME));
      r.person++;
      if (oov.length) r.anyOov++;
      if (oov.length === words.length) r.allOov++;
    }
  }
}
for (const [k, r] of Object.entries(rows)) {
  const pct = (x: number) => ((100 * x) / r.person).toFixed(1);
  process.stdout.write(
    `${k}: ${r.notes} notes, ${r.templates.size} note styles, ${r.chars} chars; entities ${JSON.stringify(r.types)}\n` +
      `  PERSON mentions with a name word in no gazetteer: ${r.anyOov}/${r.person} (${pct(r.anyOov)}%); entirely out of the gazetteers: ${r.allOov} (${pct(r.allOov)}%)\n`,
  );
}
