import { describe, expect, it } from 'vitest';
import { assertMention } from './context';
import { layoutNote } from './text';
import { extractConcepts } from './extract';

/** Assertion of the mention `target` inside `sentence` (first occurrence). */
function assertOf(sentence: string, target: string, section: Parameters<typeof assertMention>[0]['section'] = 'course') {
  const start = sentence.indexOf(target);
  if (start < 0) throw new Error(`'${target}' not in sentence`);
  return assertMention({ sentence, start, end: start + target.length, section });
}

describe('assertion (NegEx/ConText-style cues)', () => {
  it('negation before the mention, within its clause', () => {
    expect(assertOf('No evidence of pleural effusion.', 'pleural effusion').assertion).toBe('negated');
    expect(assertOf('Denies haemoptysis or chest pain.', 'chest pain').assertion).toBe('negated');
    expect(assertOf('CXR: no pneumonia, no pneumothorax.', 'pneumothorax').assertion).toBe('negated');
    // a clause boundary stops the negation
    expect(assertOf('No fever but has cellulitis of the leg.', 'cellulitis').assertion).toBe('present');
  });

  it('negation after the mention reaches only the nearest concept', () => {
    expect(assertOf('Troponin normal x2 - ACS ruled out.', 'ACS').assertion).toBe('negated');
    expect(assertOf('Rule out PE — CTPA negative.', 'PE').assertion).toBe('negated');
    // "chest pain - ACS ruled out": the post-trigger belongs to ACS, not to the chest pain before it
    const s = 'Atypical chest pain - ACS ruled out';
    const acs = s.indexOf('ACS');
    const r = assertMention({
      sentence: s,
      start: s.indexOf('chest pain'),
      end: s.indexOf('chest pain') + 10,
      section: 'diagnosis',
      others: [{ start: acs, end: acs + 3 }],
    });
    expect(r.assertion).toBe('present');
  });

  it('pseudo-negations do not negate', () => {
    expect(assertOf('Gram negative sepsis treated with meropenem.', 'sepsis').assertion).toBe('present');
    expect(assertOf('Non-ST elevation myocardial infarction.', 'myocardial infarction', 'diagnosis').assertion).toBe('present');
  });

  it('uncertainty, history, family and plans', () => {
    expect(assertOf('? pulmonary embolism, for CTPA.', 'pulmonary embolism').assertion).toBe('uncertain');
    expect(assertOf('Likely pneumonia.', 'pneumonia', 'diagnosis')).toMatchObject({ assertion: 'uncertain', uncertain: true });
    expect(assertOf('h/o CVA 2019 with full recovery.', 'CVA', 'comorbidity')).toMatchObject({ assertion: 'present', history: true });
    expect(assertOf('Old MI 2015.', 'MI', 'comorbidity').history).toBe(true);
    expect(assertOf('Mother had breast cancer.', 'breast cancer', 'narrative').assertion).toBe('family');
    expect(assertOf('Plan for laparotomy if no improvement.', 'laparotomy').assertion).toBe('hypothetical');
    expect(assertOf('DVT prophylaxis with enoxaparin.', 'DVT').assertion).toBe('hypothetical');
    // a date of this admission is not history
    expect(assertOf('Laparoscopic appendicectomy on 15/8/2024.', 'Laparoscopic appendicectomy', 'procedures').history).toBe(false);
  });

  it('sections decide first: family history, plan, investigation lines, medications', () => {
    expect(assertOf('Diabetes in both parents.', 'Diabetes', 'family').assertion).toBe('family');
    expect(assertOf('Consolidation right lower zone.', 'Consolidation', 'investigation').assertion).toBe('finding');
    expect(assertOf('Repeat OGDS in 8 weeks.', 'OGDS', 'plan').assertion).toBe('hypothetical');
  });
});

describe('note layout', () => {
  it('reads headings, inline labels, numbered lists and one-line results', () => {
    const text = [
      'Name: Tan Ah Kow  IC: 570312-10-5531',
      'Diagnosis:',
      '1. Community acquired pneumonia',
      '2. Type 2 respiratory failure',
      'Comorbidities: T2DM, HPT',
      '',
      'CXR - right lower zone consolidation.',
      'Progress in ward: IV antibiotics, improved.',
    ].join('\n');
    const l = layoutNote(text);
    const kinds = l.segments.map((s) => [s.section, text.slice(s.start, s.end)]);
    expect(kinds).toEqual([
      ['header', 'Tan Ah Kow  IC: 570312-10-5531'],
      ['diagnosis', 'Community acquired pneumonia'],
      ['diagnosis', 'Type 2 respiratory failure'],
      ['comorbidity', 'T2DM'],
      ['comorbidity', 'HPT'],
      ['investigation', 'CXR - right lower zone consolidation.'],
      ['course', 'IV antibiotics, improved.'],
    ]);
  });

  it('ends a list section where prose starts without a blank line', () => {
    const text = 'Background: hypertension on perindopril.\n3 days of diarrhoea and vomiting, reduced urine output. Dry, postural drop.';
    const l = layoutNote(text);
    expect(l.segments.map((s) => s.section)).toEqual(['comorbidity', 'narrative']);
  });
});

describe('concept extraction', () => {
  it('finds concepts, sides and organisms, and reads lower-case notes', () => {
    // typed without capitals: abbreviations are read in any case
    const lower = extractConcepts(
      'diagnosis: aecopd secondary to lrti\nother problems: osa on home cpap, hpt\n64yo gentleman, known copd, 4 days of increased sob and wheeze.',
    );
    expect(lower.mentions.map((m) => m.concept.id)).toEqual(expect.arrayContaining(['copd', 'lrti', 'osa', 'hypertension']));
    // with capitals, lower-case "hpt" is not an abbreviation
    expect(extractConcepts('Seen by the HPT team? No: Hpt is not an abbreviation here, and neither is osa.').mentions.map((m) => m.concept.id)).not.toContain(
      'osa',
    );
    const ex = extractConcepts('Urine C&S: E. coli > 10^5. Left leg cellulitis.');
    expect(ex.mentions.find((m) => m.concept.id === 'cellulitis')?.side).toBe('left');
    expect(ex.organisms.map((o) => o.organism)).toEqual(['ecoli']);
    expect(ex.organisms[0]!.specimens).toContain('urine');
  });

  it('sex and discharge status from the note', () => {
    expect(extractConcepts('Madam Wong, 69F, admitted with heart failure.').sex.value).toBe('F');
    expect(extractConcepts('67 year old gentleman with CAP. He improved.').sex.value).toBe('M');
    const died = extractConcepts('Patient passed away on day 2 at 0415h.');
    expect(died.alive.value).toBe(false);
    expect(died.dischargeStatus).toBe(20);
    expect(extractConcepts('Discharged AOR against advice.').dischargeStatus).toBe(7);
  });
});
