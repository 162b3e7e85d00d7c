/**
 * PERSON recognizer.
 *
 * Names are found from three kinds of evidence, scored and combined like Presidio's context enhancement:
 *  1. Name knowledge (gazetteers: given names, surnames, Chinese syllables, hereditary prefixes, connectors).
 *  2. Structure inside the candidate: patronymic connectors (bin/binti/a/l/a/p/s/o/d/o/anak), Chinese surname +
 *     syllables, prefix + name.
 *  3. Context around it: titles (Dr, Puan, Datuk...), labels (Name:, Pesakit:, NOK:), relations (wife, son, isteri),
 *     greetings and signatures, and what follows (age/sex, "(wife)", an IC or phone in brackets).
 * Recall first: a word no dictionary knows (English, Malay, medical) in a name position is a name.
 *
 * The work is done in named stages over one shared scan (scan.ts):
 *   roles.ts      what each token is
 *   runs.ts       runs of name-like words, scored by structure and context; coordination
 *   lowerCase.ts  names written in lower case
 *   fields.ts     chat senders, name columns, quoted values and CSV fields
 *   mentions.ts   repeated mentions of the names found
 */
import type { Candidate } from '../../types';
import type { AnalysisContext, Recognizer } from '../base';
import { findAtMentions, findChatSenders, findFieldNames, findLabelledFieldValues, findSenderLines } from './fields';
import { findLowerCaseNames } from './lower-case';
import { findRepeatedMentions } from './mentions';
import { assignRoles } from './roles';
import { buildRuns, coordinate, scoreRuns } from './runs';
import { createScan, type PersonScan } from './scan';

export const PERSON_CONTEXT_WORDS = ['name', 'nama', 'patient', 'pesakit', 'wife', 'husband', 'son', 'daughter', 'dr', 'encik', 'puan'];

export const personRecognizer: Recognizer = {
  name: 'person',
  entity: 'PERSON',
  contextWords: PERSON_CONTEXT_WORDS,
  baseScore: 0.55,
  analyze(ctx: AnalysisContext): Candidate[] {
    return findPersons(ctx);
  },
};

const STAGES: Array<[string, (s: PersonScan) => void]> = [
  ['person.roles', assignRoles],
  ['person.runs', (s) => coordinate(s, scoreRuns(s, buildRuns(s)))],
  ['person.lower_case', findLowerCaseNames],
  ['person.chat_senders', (s) => (findChatSenders(s), findSenderLines(s), findAtMentions(s))],
  ['person.fields', (s) => (findFieldNames(s), findLabelledFieldValues(s))],
  ['person.mentions', findRepeatedMentions],
];

export function findPersons(ctx: AnalysisContext): Candidate[] {
  if (!ctx.tokens.length) return [];
  const scan = createScan(ctx);
  for (const [name, stage] of STAGES) {
    const t = ctx.profile ? performance.now() : 0;
    stage(scan);
    if (ctx.profile) ctx.profile[name] = (ctx.profile[name] ?? 0) + performance.now() - t;
    ctx.checkDeadline();
  }
  // names found by two stages that overlap are one name: their union ("AF IQ DANISH" from the form field and
  // "IQ DANISH BIN HARUN" from the run), with the stronger score
  const merged: typeof scan.accepted = [];
  for (const a of [...scan.accepted].sort((x, y) => x.first - y.first || y.last - x.last)) {
    const prev = merged[merged.length - 1];
    if (prev && a.first <= prev.last) {
      if (a.last > prev.last || a.score > prev.score)
        merged[merged.length - 1] = {
          ...prev,
          last: Math.max(prev.last, a.last),
          score: Math.max(prev.score, a.score),
          strongCue: prev.strongCue || a.strongCue,
        };
    } else merged.push(a);
  }
  // its cues are its context: the engine's context step leaves these scores alone
  return merged.map((a) => ({
    start: scan.toks[a.first].start,
    end: scan.toks[a.last].end,
    type: 'PERSON' as const,
    score: a.score,
    recognizer: 'person',
    contextChecked: true,
  }));
}
