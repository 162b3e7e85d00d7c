import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type TestBackend } from '../helpers/backend';
import { importOneVocabulary } from '../fixtures/athena';
import { search } from '@/server/search/engine';

/**
 * A procedure told the way a patient or clinician tells it ("with a camera", "through a needle", "keyhole", "pushed
 * back in without surgery", "open surgery, not keyhole") finds the ICD-10-PCS code with that approach first, over
 * generated made-up body parts whose six approach codes differ only in their approach words. Without the approach
 * reading, the shortest title (percutaneous endoscopic beats via natural opening endoscopic) or the first code wins.
 */
const D = '19700101';
const E = '20991231';
const syll = ['ka', 'lo', 'mi', 'ru', 'te', 'vo', 'zi', 'pa', 'ne', 'su'];
const BODIES = Array.from({ length: 16 }, (_, k) => syll[k % 10]! + syll[Math.floor(k / 10) + 3]! + syll[(k * 7 + 2) % 10]! + 'um');
const BODY_CHAR = '0123456789ABCDEF';
const APPROACHES: Array<[string, string]> = [
  ['0', 'Open Approach'],
  ['3', 'Percutaneous Approach'],
  ['4', 'Percutaneous Endoscopic Approach'],
  ['7', 'Via Natural or Artificial Opening'],
  ['8', 'Via Natural or Artificial Opening Endoscopic'],
  ['X', 'External Approach'],
];
// how people say each approach, around the body part
const SAID: Record<string, Array<(b: string) => string>> = {
  '8': [(b) => `camera look inside the ${b}`, (b) => `they looked inside my ${b} with a scope`, (b) => `${b} inspection with a camera, no cuts`],
  '3': [(b) => `inspection of the ${b} through a needle`, (b) => `they put a needle into the ${b} to look`, (b) => `${b} inspection through the skin`],
  '4': [(b) => `keyhole inspection of the ${b}`, (b) => `laparoscopic look inside the ${b}`, (b) => `inspection of ${b} through three small cuts`],
  X: [(b) => `inspection of the ${b} from outside the body`, (b) => `${b} inspection without surgery`, (b) => `inspection of ${b}, no cut`],
  '0': [(b) => `open inspection of the ${b}`, (b) => `inspection of the ${b}, open surgery not keyhole`, (b) => `they cut open the ${b} to look inside`],
};

let be: TestBackend;
beforeAll(async () => {
  be = await startBackend();
  const concepts: Array<Array<string | number>> = [];
  let id = 700_000;
  BODIES.forEach((b, k) => {
    const name = b[0]!.toUpperCase() + b.slice(1);
    for (const [ch, words] of APPROACHES)
      concepts.push([id++, `Inspection of ${name}, ${words}`, 'Procedure', 'ICD10PCS', 'ICD10PCS', 'S', `0XJ${BODY_CHAR[k]}${ch}ZZ`, D, E, '']);
  });
  await importOneVocabulary(be.db, { vocabulary: 'ICD10PCS', domain: 'Procedure', conceptClass: 'ICD10PCS', concepts });
}, 120_000);
afterAll(async () => {
  await be?.close();
});

describe(`the approach a procedure query implies, on ${process.env.TEST_DB ?? 'postgres'}`, () => {
  const n = BODIES.length * Object.values(SAID).flat().length;
  it(`leads with the code done that way, for the body part named (${n} generated)`, async () => {
    const misses: string[] = [];
    for (const [k, b] of BODIES.entries()) {
      for (const [ch, forms] of Object.entries(SAID)) {
        for (const say of forms) {
          const q = say(b);
          const top = (await search(be.db, { query: q, vocabularies: ['ICD10PCS'], top_k: 3, min_relevance: null })).results[0]?.concept_code;
          if (top !== `0XJ${BODY_CHAR[k]}${ch}ZZ`) misses.push(`${q} → ${top}`);
        }
      }
    }
    expect(misses).toEqual([]);
  });
});
