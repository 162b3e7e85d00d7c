/**
 * Medical vocabulary for the redaction engine, taken from the reference data the service already holds: the words of
 * the ICD-10-CM and ICD-10-PCS titles (current fiscal year), the ICD-10-CM Alphabetic Index, drug and neoplasm tables,
 * HCPCS descriptions, WHO ICD-10 and ICD-9-CM titles, and the OMOP sample concept names. A capitalised word found
 * there (an organism, a drug, an anatomical or disease word) is medical vocabulary, not an unknown word, so the
 * "unknown capitalised word in a name position is a name" rule of the PERSON recognizer does not take it.
 *
 * Built once from `CODING_DATA_DIR` into the git-ignored cache (`CODING_CACHE_DIR/redact/medical-words.txt`) and
 * rebuilt when a source file changes. Without the reference data the list is empty: the engine then redacts more,
 * never less.
 */
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { cacheDir, dataDir } from '../config/paths';

const FORMAT = 'v3';

interface Source {
  /** Path relative to the data directory. */
  file: string;
  /** For zip files: which members to read. */
  members?: RegExp;
  /** Only text inside these XML elements counts (index and table files), to skip codes and markup. */
  xml?: boolean;
}

/** The newest CMS code files in the data directory (cms_YYYY_dx.zip / cms_YYYY_pr.zip). */
function newestCmsZips(dir: string): Source[] {
  const folder = path.join(dir, 'icd10cm-pcs');
  if (!fs.existsSync(folder)) return [];
  const zips = fs
    .readdirSync(folder)
    .filter((f) => /^cms_\d{4}_(?:dx|pr)\.zip$/.test(f))
    .sort();
  const newest = (kind: string) => zips.filter((f) => f.endsWith(`_${kind}.zip`)).pop();
  return ['dx', 'pr'].flatMap((k) => {
    const f = newest(k);
    return f ? [{ file: `icd10cm-pcs/${f}`, members: /order_\d{4}\.txt$/ }] : [];
  });
}

function sources(dir: string): Source[] {
  return [
    ...newestCmsZips(dir),
    { file: 'icd10cm-index/ICD10CM_FY2017_Full_XML.zip', members: /\.xml$/, xml: true },
    { file: 'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip', members: /\.txt$/i },
    { file: 'icd9/cms_v32.zip', members: /LONG.*\.txt$/i },
    { file: 'who-icd10/icd10_who_2019.txt' },
    { file: 'omop-samples/phenotype_library_concepts.tsv' },
  ].filter((s) => fs.existsSync(path.join(dir, s.file)));
}

const WORD_RE = /[A-Za-z][A-Za-z'-]*[A-Za-z]/g;
const XML_TEXT_RE = /<(?:title|note|desc|nemod|see|seeAlso)>([^<]*)/g;
// "Klebsiella pneumoniae", "Staphylococcus aureus": a capitalised genus before a lower-case species epithet
const GENUS_RE = /\b([A-Z][a-z]{3,})[ ]+(?:[a-z]+(?:ae|ii|is|us|um|ensis|oides|i|a)|spp?\.?|species)\b/g;

/**
 * Words seen in lower case are common nouns (klebsiella pneumonia, appendectomy); a word seen only capitalised is a
 * proper noun (an eponym, a device brand, a place: Maxwell, Kaposi), which may be somebody's name and is left out,
 * except a genus before its species (Klebsiella pneumoniae).
 */
interface WordSets {
  lower: Set<string>;
  genus: Set<string>;
}

function addWords(text: string, out: WordSets): void {
  for (const m of text.matchAll(WORD_RE)) {
    const w = m[0];
    if (w === w.toUpperCase()) continue; // codes and headings in capitals say nothing about the word
    for (const part of w.split(/['-]/)) if (part.length >= 3 && part === part.toLowerCase()) out.lower.add(part);
  }
  for (const m of text.matchAll(GENUS_RE)) out.genus.add(m[1].toLowerCase());
}

function readSource(dir: string, s: Source, out: WordSets): void {
  const full = path.join(dir, s.file);
  const texts: string[] = [];
  if (s.file.endsWith('.zip')) {
    const files = unzipSync(new Uint8Array(fs.readFileSync(full)), { filter: (f) => !s.members || s.members.test(f.name) });
    for (const bytes of Object.values(files)) texts.push(Buffer.from(bytes).toString('latin1'));
  } else texts.push(fs.readFileSync(full, 'latin1'));
  for (const t of texts) {
    if (s.xml) for (const m of t.matchAll(XML_TEXT_RE)) addWords(m[1], out);
    else addWords(t, out);
  }
}

function stampOf(dir: string, list: Source[]): string {
  return [
    FORMAT,
    ...list.map((s) => {
      const st = fs.statSync(path.join(dir, s.file));
      return `${s.file}:${st.size}:${Math.floor(st.mtimeMs)}`;
    }),
  ].join('|');
}

/**
 * The medical words (lower case, 3+ letters), from the cache or built from the reference data. `dir` defaults to
 * `CODING_DATA_DIR`. Never throws: a missing or unreadable data directory gives an empty list.
 */
export function loadMedicalWords(dir = dataDir()): string[] {
  let list: Source[];
  try {
    list = sources(dir);
  } catch {
    return [];
  }
  if (!list.length) return [];
  const cacheFile = path.join(cacheDir(), 'redact', 'medical-words.txt');
  let stamp: string;
  try {
    stamp = stampOf(dir, list);
  } catch {
    return [];
  }
  try {
    const cached = fs.readFileSync(cacheFile, 'utf8');
    const nl = cached.indexOf('\n');
    if (nl > 0 && cached.slice(0, nl) === stamp)
      return cached
        .slice(nl + 1)
        .split('\n')
        .filter(Boolean);
  } catch {
    /* no cache yet */
  }
  const words: WordSets = { lower: new Set(), genus: new Set() };
  try {
    for (const s of list) readSource(dir, s, words);
  } catch {
    return [];
  }
  const sorted = [...new Set([...words.lower, ...words.genus])].sort();
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${stamp}\n${sorted.join('\n')}\n`);
    fs.renameSync(tmp, cacheFile); // atomic: concurrent builders (test workers) never read half a file
  } catch {
    /* a read-only cache folder: use the list without caching it */
  }
  return sorted;
}

/**
 * Medical word shapes: a word no list knows but built like a specialty, a procedure, a disease or a drug class
 * (Otorhinolaryngology, gastrojejunostomy, thrombocytopenia, piperacillin) is medical vocabulary. Suffixes that
 * personal names also end in (-oma: Roma; -ine: Christine; -ol: Carol) need a longer word or are left out.
 */
const MEDICAL_SHAPE_RE =
  /(?:olog(?:y|ist|ists|ical)|itis|ectomy|ectomies|otomy|ostomy|ostomies|plasty|scopy|scopies|graphy|aemia|emia|osis|oses|iasis|pathy|pathies|algia|megaly|plegia|paresis|trophy|cytes?|penia|uria|rrh(?:o?ea|age|agic)|ectasis|lysis|philia|phobia|genesis|mycin|cillin|floxacin|azole|prazole|tidine|dipine|sartan|statin|parin|olol|[a-z]{5}oma|[a-z]{4}ase|thiazide|semide|azepam|triptan|setron|lukast|gliptin|glitazone|gliflozin|dronate|vudine|navir|previr|umab|ximab|zumab|tinib|rafenib)$/;

export function hasMedicalShape(word: string): boolean {
  return word.length >= 6 && MEDICAL_SHAPE_RE.test(word);
}
