/**
 * Stage 6 of the PERSON recognizer: clinicians repeat names without the evidence that found them first, so every word
 * of a strongly evidenced name is searched for again in the whole text (first name only, surname only, ALL CAPS,
 * lower case when the name was written in lower case); an ordinary word that is also a name is only taken
 * capitalised, mid-sentence and away from numbers.
 */
import { F, VOCAB_FLAGS } from '../../gazetteer';
import type { PersonScan } from './scan';

export function findRepeatedMentions(s: PersonScan): void {
  const { toks, n, role, accepted, maxProt, joinable, isSentenceStart } = s;
  // ---------- repeated mentions: tokens of strongly evidenced names, found again anywhere in the text
  const covered = new Uint8Array(n);
  for (const a of accepted) for (let k = a.first; k <= a.last; k++) covered[k] = 1;
  const keys = new Map<string, { lower: boolean }>();
  for (const a of accepted) {
    if (a.score < 0.7 && !(a.score >= 0.55 && a.last > a.first)) continue;
    for (let k = a.first; k <= a.last; k++) {
      const r = role[k];
      const t = toks[k];
      if (!(r === 'name' || r === 'amb' || r === 'unk' || r === 'lname' || r === 'lower')) continue;
      if (t.norm.length < 2) continue;
      if (t.flags & F.PREFIX && !(t.flags & (F.GIVEN | F.SURNAME | F.CN_SURNAME))) continue;
      if (t.flags & (F.CONNECTOR | F.TITLE)) continue;
      if ((r === 'lower' || r === 'lname') && t.flags & VOCAB_FLAGS) continue;
      const prev = keys.get(t.norm);
      const lower = t.shape === 'lower';
      keys.set(t.norm, { lower: (prev?.lower ?? false) || lower });
    }
  }
  const hit = new Uint8Array(n);
  if (keys.size) {
    for (let i = 0; i < n; i++) {
      if (covered[i] || role[i] === 'blocked' || role[i] === 'title' || role[i] === 'other') continue;
      const t = toks[i];
      const key = keys.get(t.norm);
      if (!key) continue;
      if (t.shape === 'lower' && !key.lower) continue;
      if (t.shape === 'initial') continue;
      if (t.flags & VOCAB_FLAGS) {
        // an ordinary word that is also someone's name: only capitalised, mid-sentence, not next to a number
        if (t.shape === 'lower' && t.flags & VOCAB_FLAGS) continue;
        if (isSentenceStart(i) && !(i + 1 < n && keys.has(toks[i + 1].norm) && joinable(i, i + 1))) continue;
        if ((i > 0 && toks[i - 1].shape === 'num') || (i + 1 < n && toks[i + 1].shape === 'num')) continue;
      }
      if (maxProt(t.start, t.end) > 0.75) continue;
      hit[i] = 1;
    }
    for (let i = 0; i < n; i++) {
      if (!hit[i]) continue;
      // include an adjacent hereditary prefix on the left ("Nur" of "Nur Batrisyia")
      const startTok = i > 0 && !covered[i - 1] && role[i - 1] === 'prefix' && joinable(i - 1, i) ? i - 1 : i;
      let j = i;
      while (j + 1 < n && joinable(j, j + 1)) {
        if (hit[j + 1]) {
          j++;
          continue;
        }
        // a connector between two hits ("Ali bin Abu" repeated), or an unknown capitalised word glued to the hit
        if (role[j + 1] === 'conn' && j + 2 < n && hit[j + 2] && joinable(j + 1, j + 2)) {
          j += 2;
          continue;
        }
        break;
      }
      accepted.push({ first: startTok, last: j, score: 0.75, strongCue: false, lower: toks[i].shape === 'lower' });
      i = j;
    }
  }
}
