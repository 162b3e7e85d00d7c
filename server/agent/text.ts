/**
 * Layout of a clinical note: sections (from headings and labels), list items and sentences, with offsets into the
 * original text. Written for discharge summaries as Malaysian (and most Commonwealth) hospitals write them: labelled
 * blocks (`Diagnosis:`, `Underlying:`, `HOPI:`, `Progress in ward:`), numbered lists, one-line investigation results
 * (`CXR: …`, `Urine C&S: …`), or plain narrative with no headings at all.
 */

export type SectionKind =
  | 'narrative'
  | 'diagnosis'
  | 'secondary'
  | 'comorbidity'
  | 'pmh'
  | 'psh'
  | 'presenting'
  | 'course'
  | 'procedures'
  | 'findings'
  | 'investigation'
  | 'examination'
  | 'medications'
  | 'allergies'
  | 'family'
  | 'social'
  | 'plan'
  | 'differential'
  | 'header';

/** Sections whose lines are lists: one item per line (and per `;`, and per `,` in comorbidity lists). */
const LIST_SECTIONS = new Set<SectionKind>([
  'diagnosis',
  'secondary',
  'comorbidity',
  'pmh',
  'psh',
  'procedures',
  'differential',
  'medications',
  'allergies',
  'family',
]);
/** Lists whose comma-separated parts are separate conditions (`Underlying: T2DM, HPT, DLP`). */
const COMMA_LISTS = new Set<SectionKind>(['secondary', 'comorbidity', 'pmh', 'psh', 'family']);
/** Kinds that apply to one line only (a labelled result, the patient's name), then the previous section resumes. */
const LINE_KINDS = new Set<SectionKind>(['investigation', 'header']);

/** Heading labels → section kind. Order matters: the more specific first. */
const HEADINGS: Array<[RegExp, SectionKind]> = [
  [/^(?:past |previous )?surgical history$|^psh$|^previous (?:surgery|surgeries|operations?)$|^past surgical hx$/, 'psh'],
  [/^(?:past medical history|pmh|pmhx|medical history|past history|past medical hx)$/, 'pmh'],
  [/^(?:family history|fhx|fh|family hx)$/, 'family'],
  [/^(?:social history|shx|social hx|social)$/, 'social'],
  [/^(?:differentials?|ddx|differential diagnos[ie]s|differentials? considered|differential diagnos[ie]s considered)$/, 'differential'],
  [/^(?:secondary|other|additional|associated)(?: diagnos[ie]s| dx| problems?| conditions?)?$/, 'secondary'],
  [
    /^(?:(?:principal|primary|main|final|discharge|admitting|admission|working|provisional|clinical)\s+)*(?:diagnos[ie]s|dx|impression)(?:\s+on discharge)?$/,
    'diagnosis',
  ],
  [/^(?:causes? of death|cause of death)$/, 'diagnosis'],
  [
    /^(?:co-?morbid(?:it(?:y|ies)|s)?|underlying(?: illness(?:es)?| conditions?| diseases?)?|background(?: history)?|known case of|k\/c\/o|medical problems?|problem list|active problems?)$/,
    'comorbidity',
  ],
  [
    /^(?:history of present(?:ing)? illness|history of presenting complaint|hpi|hopi|hpc|hx|history of presentation|presenting complaints?|chief complaints?|c\/o|complaints?|history|clinical history|reason for admission|presentation|admission history)$/,
    'presenting',
  ],
  [
    /^(?:hospital course|clinical course|course in (?:the )?ward|ward course|progress(?: in (?:the )?ward)?|management|treatment|summary of (?:hospital )?stay|in ward|issues?|post-?op(?:erative)?(?: course| progress)?|post-procedure|outcome)$/,
    'course',
  ],
  [
    /^(?:procedures?|operations?|surgery|surger(?:y|ies) (?:done|performed)|interventions?|procedures? (?:done|performed)|operation done|procedures? and operations?)$/,
    'procedures',
  ],
  [/^(?:findings|intra-?op(?:erative)?(?: findings)?|operative findings|intraop findings|mechanism(?: of injury)?|moi)$/, 'findings'],
  [/^(?:investigations?|results?|labs?|laboratory(?: results)?|imaging|radiology|blood (?:tests|results)|ix|relevant investigations?)$/, 'investigation'],
  [/^(?:examination|on examination|o\/e|physical examination|clinical examination)$/, 'examination'],
  [/^(?:medications?|discharge medications?|drugs?|meds|tto|medications? on discharge|discharge drugs?)$/, 'medications'],
  [/^(?:allerg(?:y|ies)|drug allerg(?:y|ies))$/, 'allergies'],
  [/^(?:plan|plans|follow[- ]?up|discharge plan|advice|discharge advice|tca|recommendations?|to do)$/, 'plan'],
  [
    /^(?:name|patient(?:'s)? name|patient|pt|ic|nric|ic no|rn|mrn|reg(?:istration)? no|address|tel|phone|contact|nok|next of kin|ward|bed|date|doa|dod|date of admission|date of discharge|age|sex|gender|consultant|attending|hospital|deceased|race|occupation)$/,
    'header',
  ],
];

/** A label that is not a section heading but makes its line an investigation result. */
const INVESTIGATION_LABEL =
  /\b(?:cxr|chest x-?ray|x-?rays?|axr|ct\b|ctpa|ct kub|ct tap|ct brain|ct abdomen|ct angiogram|cta|mri|mra|us\b|usg|ultrasound|doppler|echo(?:cardiogram)?|ecg|ekg|abg|vbg|fbc|twc|hb\b|crp|esr|culture|c&s|c\/s|sputum|stool|ufeme|urinalysis|swab|hpe|histo(?:pathology)?|biopsy result|troponin|renal profile|lft|tft|coag(?:ulation)?|inr|lactate|hba1c|lipids?|eeg|ncs|spirometry|pefr|d-?dimer|labs?|blood tests?|ns1|serology|mat\b|weil-felix|gram stain|afb|genexpert|vein mapping|bone scan|pet|mammogram|kub)\b/;

/** Labels of procedure lines inside other sections (`OGDS (day 1): …`). */
const PROCEDURE_LABEL =
  /\b(?:ogds|egd|endoscopy|gastroscopy|colonoscopy|sigmoidoscopy|ercp|angiogram|angiography|angioplasty|pci|operation|procedure|surgery|cystoscopy|ureteroscopy|bronchoscopy)\b/;

export interface Line {
  start: number;
  end: number;
  text: string;
}

/** A unit of the note with one section kind: a whole line, or the part of a line after its label. */
export interface Segment {
  start: number;
  end: number;
  section: SectionKind;
  heading: string | null;
  /** Counts sections in order of appearance (a new heading starts a new one). */
  sectionIndex: number;
  /** Item number within the section (list sections: per line/part; prose: per segment). */
  item: number;
  /** For a labelled line inside a section: the label (`CXR`, `OGDS`). */
  label: string | null;
}

export interface Sentence {
  start: number;
  end: number;
}

export interface NoteLayout {
  text: string;
  lower: string;
  segments: Segment[];
  sentences: Sentence[];
}

export function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === '\n') {
      let end = i;
      if (end > start && text[end - 1] === '\r') end--;
      out.push({ start, end, text: text.slice(start, end) });
      start = i + 1;
    }
  }
  return out;
}

/** Normalise a label for matching: lower case, parentheses dropped, `&`/`/` kept, spaces squeezed. */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^a-z0-9&/' -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function headingKind(label: string): SectionKind | null {
  const l = normalizeLabel(label);
  if (!l) return null;
  for (const [re, kind] of HEADINGS) if (re.test(l)) return kind;
  return null;
}

const LABEL_RE = /^(\s*(?:[-*•>]\s*)?(?:\d{1,2}[.)]\s+)?)([A-Za-z][A-Za-z0-9 /&'.,+#-]*(?:\([^)\n]{0,40}\))?[A-Za-z0-9 /&'.+#-]*?)\s*:\s*/;
const LIST_MARK = /^\s*(?:[-*•>]\s*|\(?\d{1,2}[a-z]?[.)]\s+|\(?[a-z][.)]\s+)/;
/** "CXR - L sided effusion", "OGDS – DU with visible vessel": a short investigation/procedure label with a dash. */
const DASH_LABEL_RE =
  /^(\s*)((?:cxr|axr|ct(?: [a-z]+)?|ctpa|mri(?: [a-z-]+)?|us(?: [a-z]+)?|usg|ultrasound(?: [a-z]+)?|echo|ecg|doppler|abg|fbc|x-?ray|ogds|egd|colonoscopy|ercp|hpe|urine c&s|blood c&s|sputum c&s)\b[^-–:\n]{0,20}?)\s+[-–]\s+/i;

/** A line of running prose (several words and sentence punctuation), not a list item. */
function looksLikeProse(line: string, bareHeading: boolean): boolean {
  const t = line.trim();
  const n = t.split(/\s+/).length;
  if (/[.!?]\s+[A-Za-z]/.test(t) && n >= 8) return true;
  if (!bareHeading && n >= 8 && /\.$/.test(t)) return true;
  return false;
}

interface OpenSection {
  kind: SectionKind;
  heading: string | null;
  index: number;
  item: number;
  /** The heading line had no content after the label (so a blank line right after it does not end the section). */
  bare: boolean;
  /** Lines since the heading. */
  lines: number;
}

/** Split the note into segments with section kinds, list items and sentences. */
export function layoutNote(text: string): NoteLayout {
  const segments: Segment[] = [];
  let sectionCount = 0;
  let cur: OpenSection = { kind: 'narrative', heading: null, index: 0, item: -1, bare: false, lines: 0 };
  const open = (kind: SectionKind, heading: string | null, bare: boolean) => {
    cur = { kind, heading, index: ++sectionCount, item: -1, bare, lines: 0 };
  };

  for (const line of splitLines(text)) {
    if (!line.text.trim()) {
      if (cur.kind !== 'narrative' && !(cur.bare && cur.lines === 0)) open('narrative', null, false);
      continue;
    }
    // a list section ends where prose starts without a blank line ("Background: HPT\nPresented with 3 days of…")
    if (LIST_SECTIONS.has(cur.kind) && !LIST_MARK.test(line.text) && !LABEL_RE.test(line.text) && looksLikeProse(line.text, cur.bare))
      open('narrative', null, false);
    let contentStart = line.start;
    let lineKind: SectionKind | null = null;
    let label: string | null = null;
    const m = DASH_LABEL_RE.exec(line.text) ?? LABEL_RE.exec(line.text);
    if (m && m[2] && m[2].length <= 60 && /[A-Za-z)]$/.test(m[2].trim()) && !/^\d/.test(m[2])) {
      const raw = m[2].trim();
      const kind = headingKind(raw);
      const rest = line.text.slice(m[0].length);
      const norm = normalizeLabel(raw);
      if (kind && LINE_KINDS.has(kind)) {
        lineKind = kind;
        label = raw;
        contentStart = line.start + m[0].length;
      } else if (kind) {
        open(kind, raw, rest.trim().length === 0);
        contentStart = line.start + m[0].length;
      } else if (norm.split(' ').length <= 6 && INVESTIGATION_LABEL.test(norm)) {
        lineKind = 'investigation';
        label = raw;
      } else if (norm.split(' ').length <= 6 && PROCEDURE_LABEL.test(norm) && cur.kind !== 'procedures') {
        lineKind = 'procedures';
        label = raw;
      }
    } else {
      // a heading on its own line without a colon ("PAST MEDICAL HISTORY", "Hospital course")
      const t = line.text.trim();
      if (t.length <= 40 && !/[.,;]$/.test(t)) {
        const kind = headingKind(t);
        if (kind && !LINE_KINDS.has(kind) && (t === t.toUpperCase() || /^[A-Z][a-z]/.test(t))) {
          open(kind, t, true);
          continue;
        }
      }
    }
    cur.lines++;
    const kind = lineKind ?? cur.kind;
    const start = contentStart;
    const end = line.end;
    if (start >= end) continue;
    if (lineKind) {
      segments.push({ start, end, section: lineKind, heading: cur.heading, sectionIndex: cur.index, item: ++cur.item, label });
      continue;
    }
    if (LIST_SECTIONS.has(kind)) {
      // one item per line; `;` always separates items; `,` only in comorbidity-style lists
      const body = text.slice(start, end);
      const sep = COMMA_LISTS.has(kind) ? /[;,](?![^(]*\))/g : /;(?![^(]*\))/g;
      let last = 0;
      const parts: Array<[number, number]> = [];
      for (const s of body.matchAll(sep)) {
        parts.push([last, s.index]);
        last = s.index + 1;
      }
      parts.push([last, body.length]);
      for (const [a, b] of parts) {
        let ps = start + a;
        const pe = start + b;
        const lead = LIST_MARK.exec(text.slice(ps, pe));
        if (lead) ps += lead[0].length;
        while (ps < pe && /\s/.test(text[ps]!)) ps++;
        if (ps < pe) segments.push({ start: ps, end: pe, section: kind, heading: cur.heading, sectionIndex: cur.index, item: ++cur.item, label: null });
      }
    } else {
      segments.push({ start, end, section: kind, heading: cur.heading, sectionIndex: cur.index, item: ++cur.item, label: null });
    }
  }
  return { text, lower: text.toLowerCase(), segments, sentences: splitSentences(text, segments) };
}

/** Words before a full stop that do not end a sentence. */
const NO_BREAK = /(?:\b(?:dr|mr|mrs|ms|st|vs|no|tab|inj|approx|e\.g|i\.e|cf|sr|jr|prof|dept|ref|fig|t|e|h|s|k|p|c|m|n|b|a)|\d)$/i;

/** Sentences inside segments (a segment never spans two sentences' worth of headings). */
export function splitSentences(text: string, segments: Segment[]): Sentence[] {
  const out: Sentence[] = [];
  for (const seg of segments) {
    let s = seg.start;
    for (let i = seg.start; i < seg.end; i++) {
      const ch = text[i]!;
      if (ch === '.' || ch === '!' || ch === '?' || ch === ';') {
        const next = text[i + 1];
        const atEnd = i + 1 >= seg.end;
        const before = text.slice(Math.max(seg.start, i - 8), i);
        if (ch === '.' && !atEnd && (next !== ' ' || NO_BREAK.test(before))) continue;
        if (ch === '?' && !atEnd && next !== ' ') continue;
        if (ch === '.' && !atEnd && !/[A-Z(\d[]/.test(text[i + 2] ?? '')) continue;
        out.push({ start: s, end: i + 1 });
        s = i + 1;
        while (s < seg.end && text[s] === ' ') s++;
      }
    }
    if (s < seg.end) out.push({ start: s, end: seg.end });
  }
  return out;
}

/** The segment containing an offset (binary search; segments are in text order and do not overlap). */
export function segmentAt(layout: NoteLayout, offset: number): Segment | null {
  const segs = layout.segments;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segs[mid]!;
    if (offset < s.start) hi = mid - 1;
    else if (offset >= s.end) lo = mid + 1;
    else return s;
  }
  return null;
}

export function sentenceAt(layout: NoteLayout, offset: number): Sentence | null {
  const ss = layout.sentences;
  let lo = 0;
  let hi = ss.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = ss[mid]!;
    if (offset < s.start) hi = mid - 1;
    else if (offset >= s.end) lo = mid + 1;
    else return s;
  }
  return null;
}

/** Lower-case words of a string (letters and digits), for coverage scoring. */
export function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}
