import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { child, childrenOf, deepText, parseXml, type XmlNode } from './xml';

/**
 * Readers for the public reference files in `$CODING_DATA_DIR` (see ../shared/data/README.md). Each returns plain
 * records; the builder turns them into OMOP concepts.
 */
export function readZipText(zipPath: string, pick: (name: string) => boolean, encoding: 'utf8' | 'latin1' = 'utf8'): Map<string, string> {
  const files = unzipSync(new Uint8Array(fs.readFileSync(zipPath)), { filter: (f) => pick(path.basename(f.name)) });
  const out = new Map<string, string>();
  for (const [name, data] of Object.entries(files)) out.set(path.basename(name), Buffer.from(data).toString(encoding));
  return out;
}

function onlyFile(map: Map<string, string>, what: string): string {
  const v = [...map.values()][0];
  if (v === undefined) throw new Error(`${what} not found in the archive`);
  return v;
}

export interface OrderRow {
  code: string;
  billable: boolean;
  shortTitle: string;
  longTitle: string;
}

/** CMS order file: fixed width (order 1-5, code 7-13, flag 15, short title 17-76, long title 78-). */
export function parseOrderFile(text: string): OrderRow[] {
  const rows: OrderRow[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.length < 16) continue;
    const code = line.slice(6, 13).trim();
    if (!code) continue;
    rows.push({ code, billable: line[14] === '1', shortTitle: line.slice(16, 76).trim(), longTitle: line.slice(77).trim() });
  }
  return rows;
}

export function readIcd10cmOrder(dataDir: string, year: number): OrderRow[] {
  const zip = path.join(dataDir, 'icd10cm-pcs', `cms_${year}_dx.zip`);
  return parseOrderFile(
    onlyFile(
      readZipText(zip, (n) => new RegExp(`^icd10cm_order_${year}\\.txt$`).test(n)),
      'ICD-10-CM order file',
    ),
  );
}

export function readIcd10pcsOrder(dataDir: string, year: number): OrderRow[] {
  const zip = path.join(dataDir, 'icd10cm-pcs', `cms_${year}_pr.zip`);
  return parseOrderFile(
    onlyFile(
      readZipText(zip, (n) => new RegExp(`^icd10pcs_order_${year}\\.txt$`).test(n)),
      'ICD-10-PCS order file',
    ),
  );
}

/** ICD-9-CM v32 long titles: `CODE<space(s)>Title` per line (Latin-1). */
export function readIcd9(dataDir: string): { dx: Array<[string, string]>; sg: Array<[string, string]> } {
  const files = readZipText(path.join(dataDir, 'icd9', 'cms_v32.zip'), (n) => /^CMS32_DESC_LONG_(DX|SG)\.txt$/.test(n), 'latin1');
  const parse = (t: string | undefined): Array<[string, string]> =>
    (t ?? '')
      .split(/\r?\n/)
      .map((l) => l.match(/^(\S+)\s+(.+?)\s*$/))
      .filter((m): m is RegExpMatchArray => !!m)
      .map((m) => [m[1]!, m[2]!]);
  return { dx: parse(files.get('CMS32_DESC_LONG_DX.txt')), sg: parse(files.get('CMS32_DESC_LONG_SG.txt')) };
}

/** WHO ICD-10 2019: `CODE<whitespace>Title`, with chapter (roman) and block (A00-A09) rows. */
export function readWhoIcd10(dataDir: string): Array<{ code: string; title: string; kind: 'chapter' | 'block' | 'code' }> {
  const text = fs.readFileSync(path.join(dataDir, 'who-icd10', 'icd10_who_2019.txt'), 'utf8');
  const out: Array<{ code: string; title: string; kind: 'chapter' | 'block' | 'code' }> = [];
  for (const line of text.split(/\r?\n/)) {
    const m = line.match(/^(\S+)\s+(.+?)\s*$/);
    if (!m) continue;
    const code = m[1]!;
    if (/^[IVXLC]+$/.test(code)) out.push({ code, title: m[2]!, kind: 'chapter' });
    else if (/^[A-Z]\d\d-[A-Z]\d\d$/.test(code)) out.push({ code, title: m[2]!, kind: 'block' });
    else if (/^[A-Z]\d\d(\.\d{1,2})?[+*]?$/.test(code)) out.push({ code: code.replace(/[+*]$/, ''), title: m[2]!, kind: 'code' });
  }
  return out;
}

/** HCPCS 2019 contractor file: code 1-5, record id 11 (3 = first line, 4 = continuation), long description 12-91. */
export function readHcpcs(dataDir: string): Array<{ code: string; title: string }> {
  const text = onlyFile(
    readZipText(path.join(dataDir, 'hcpcs', '2019-Alpha-Numeric-HCPCS-File.zip'), (n) => /^HCPC2019_CONTR_ANWEB\.txt$/.test(n), 'latin1'),
    'HCPCS file',
  );
  const byCode = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (!/^[A-Z]\d{4}\d{5}[34]/.test(line)) continue;
    const code = line.slice(0, 5);
    const part = line.slice(11, 91).trim();
    byCode.set(code, byCode.has(code) ? `${byCode.get(code)} ${part}` : part);
  }
  return [...byCode].map(([code, title]) => ({ code, title: title.replace(/\s+/g, ' ').trim() }));
}

/** MS-DRG titles from the newest grouper table folder. */
export function readDrgs(dataDir: string): Array<{ code: string; title: string }> {
  const base = path.join(dataDir, 'msdrg', 'tables');
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((d) => /^v\d+$/.test(d) && fs.existsSync(path.join(base, d, 'drgs.tsv')))
        .sort()
    : [];
  const newest = versions[versions.length - 1];
  if (!newest) return [];
  const lines = fs.readFileSync(path.join(base, newest, 'drgs.tsv'), 'utf8').split(/\r?\n/);
  const header = lines[0]!.split('\t');
  const iDrg = header.indexOf('drg');
  const iTitle = header.indexOf('title');
  const out: Array<{ code: string; title: string }> = [];
  for (const l of lines.slice(1)) {
    const f = l.split('\t');
    if (!f[iDrg] || !f[iTitle]) continue;
    out.push({ code: f[iDrg]!.padStart(3, '0'), title: f[iTitle]! });
  }
  return out;
}

export interface GemRow {
  source: string;
  target: string;
  noMap: boolean;
}

export function readGem(dataDir: string, file: string): GemRow[] {
  const text = fs.readFileSync(path.join(dataDir, 'gems', file), 'utf8');
  const out: GemRow[] = [];
  for (const line of text.split(/\r?\n/)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 3) continue;
    out.push({ source: f[0]!, target: f[1]!, noMap: f[2]![1] === '1' });
  }
  return out;
}

/* ---------- ICD-10-CM tabular and index (CDC XML) ---------- */

export interface IndexSynonym {
  /** Code as printed (dots, may end in '-'). */
  code: string;
  text: string;
  source: 'tabular' | 'index' | 'index-see' | 'neoplasm';
}

function titleParts(node: XmlNode): { title: string; nemod: string } {
  const t = child(node, 'title');
  if (!t) return { title: '', nemod: '' };
  const nemod = childrenOf(t, 'nemod').map(deepText).join(' ');
  return { title: t.text.replace(/\s+/g, ' ').trim(), nemod: nemod.trim() };
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9, ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .trim();

/** Tabular inclusion terms (per code) and "includes" notes (per category). */
export function extractTabular(xml: string): IndexSynonym[] {
  const root = parseXml(xml);
  const out: IndexSynonym[] = [];
  const visit = (n: XmlNode) => {
    if (n.tag === 'diag') {
      const code = child(n, 'name')?.text.trim();
      if (code) {
        for (const tag of ['inclusionTerm', 'includes']) {
          for (const block of childrenOf(n, tag)) for (const note of childrenOf(block, 'note')) out.push({ code, text: deepText(note), source: 'tabular' });
        }
      }
    }
    for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}

interface IndexEntry {
  path: string[];
  nemod: string[];
  code?: string;
  see?: string;
}

/**
 * The Alphabetic Index: every path (main term → sub-terms) with a code becomes a synonym of that code; a path with
 * "see X" takes the code X resolves to (following up to three see-chains), which is how lay entries such as
 * "Attack, heart — see Infarct, myocardium" reach I21.9.
 */
export function extractIndex(xml: string): IndexSynonym[] {
  const root = parseXml(xml);
  const entries: IndexEntry[] = [];
  const byKey = new Map<string, IndexEntry>();
  const aliases = (title: string): string[] => {
    const full = norm(title);
    const parts = full.split(', ').filter(Boolean);
    return [...new Set([full, ...parts])];
  };
  const visit = (n: XmlNode, pathTitles: string[], pathNemod: string[], keys: string[]) => {
    const { title, nemod } = titleParts(n);
    if (!title) return;
    const p = [...pathTitles, title];
    const nm = [...pathNemod, nemod];
    const entry: IndexEntry = { path: p, nemod: nm };
    const code = child(n, 'code')?.text.trim();
    if (code) entry.code = code;
    const see = child(n, 'see');
    if (see) entry.see = deepText(see);
    entries.push(entry);
    const myKeys: string[] = [];
    for (const base of keys.length ? keys : ['']) {
      for (const a of aliases(title)) {
        const k = base ? `${base}, ${a}` : a;
        if (myKeys.length < 12) myKeys.push(k);
        if (!byKey.has(k)) byKey.set(k, entry);
      }
    }
    for (const t of childrenOf(n, 'term')) visit(t, p, nm, myKeys);
  };
  for (const letter of walkTag(root, 'letter')) for (const mt of childrenOf(letter, 'mainTerm')) visit(mt, [], [], []);

  const resolve = (see: string, depth: number): string | undefined => {
    if (depth > 3) return undefined;
    const k = norm(see.replace(/^\s*also\s+/i, ''));
    // "see condition", "see Disease", "…, by site" are instructions, not a single target
    if (/^(condition|disease|diseased|by site)\b|by site|\bcondition$/.test(k)) return undefined;
    const target = byKey.get(k);
    if (!target) return undefined;
    if (target.code) return target.code;
    return target.see ? resolve(target.see, depth + 1) : undefined;
  };
  const render = (e: IndexEntry) => e.path.map((t, i) => (e.nemod[i] ? `${t} ${e.nemod[i]}` : t)).join(', ');

  const out: IndexSynonym[] = [];
  for (const e of entries) {
    if (e.code) out.push({ code: e.code, text: render(e), source: 'index' });
    else if (e.see) {
      const code = resolve(e.see, 0);
      if (code) out.push({ code, text: render(e), source: 'index-see' });
    }
  }
  return out;
}

const NEOPLASM_COLUMNS: Record<string, string> = {
  '2': 'malignant neoplasm, primary (cancer)',
  '3': 'secondary malignant neoplasm (metastatic)',
  '4': 'carcinoma in situ',
  '5': 'benign neoplasm',
  '6': 'neoplasm of uncertain behavior',
  '7': 'neoplasm of unspecified behavior',
};

/** The Table of Neoplasms: one synonym per site path and behaviour column. */
export function extractNeoplasmTable(xml: string): IndexSynonym[] {
  const root = parseXml(xml);
  const out: IndexSynonym[] = [];
  const visit = (n: XmlNode, sites: string[]) => {
    const { title, nemod } = titleParts(n);
    if (!title) return;
    const here = n.tag === 'mainTerm' ? sites : [...sites, nemod ? `${title} ${nemod}` : title];
    for (const cell of childrenOf(n, 'cell')) {
      const label = NEOPLASM_COLUMNS[cell.attrs.col ?? ''];
      const code = cell.text.trim();
      if (!label || !code || code === '--') continue;
      out.push({ code, text: here.length ? `${here.join(', ')}, ${label}` : label, source: 'neoplasm' });
    }
    for (const t of childrenOf(n, 'term')) visit(t, here);
  };
  for (const letter of walkTag(root, 'letter')) for (const mt of childrenOf(letter, 'mainTerm')) visit(mt, []);
  return out;
}

function walkTag(root: XmlNode, tag: string): XmlNode[] {
  const out: XmlNode[] = [];
  const visit = (n: XmlNode) => {
    if (n.tag === tag) out.push(n);
    else for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}

export function readIcd10cmXml(dataDir: string): { tabular: string; index: string; neoplasm: string } | null {
  const zip = path.join(dataDir, 'icd10cm-index', 'ICD10CM_FY2017_Full_XML.zip');
  if (!fs.existsSync(zip)) return null;
  const files = readZipText(zip, (n) => /^icd10cm_(tabular|index|neoplasm)_2017\.xml$/.test(n));
  return {
    tabular: files.get('icd10cm_tabular_2017.xml') ?? '',
    index: files.get('icd10cm_index_2017.xml') ?? '',
    neoplasm: files.get('icd10cm_neoplasm_2017.xml') ?? '',
  };
}

/* ---------- OMOP samples ---------- */

export interface SampleConcept {
  concept_id: number;
  concept_name: string;
  domain_id: string;
  vocabulary_id: string;
  concept_class_id: string;
  standard_concept: string;
  concept_code: string;
}

/** Minimal CSV (RFC 4180) line splitter for the comma-separated sample files. */
export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (q) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else q = false;
      } else cur += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function readTable(file: string, sep: 'tab' | 'csv'): Array<Record<string, string>> {
  if (!fs.existsSync(file)) return [];
  const lines = fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.length);
  const split = sep === 'tab' ? (l: string) => l.split('\t') : splitCsvLine;
  const header = split(lines[0]!.replace(/^\uFEFF/, '')).map((h) => h.trim().toLowerCase());
  return lines.slice(1).map((l) => {
    const f = split(l);
    const r: Record<string, string> = {};
    header.forEach((h, i) => (r[h] = f[i] ?? ''));
    return r;
  });
}

export function readSamples(dataDir: string): {
  concepts: SampleConcept[];
  relationships: Array<{ c1: number; c2: number; rel: string }>;
  ancestors: Array<{ a: number; d: number; min: number; max: number }>;
  synonyms: Array<{ id: number; name: string }>;
} {
  const base = path.join(dataDir, 'omop-samples');
  const concepts: SampleConcept[] = [];
  const toConcept = (r: Record<string, string>): SampleConcept => ({
    concept_id: Number(r.concept_id),
    concept_name: r.concept_name ?? '',
    domain_id: r.domain_id ?? '',
    vocabulary_id: r.vocabulary_id ?? '',
    concept_class_id: r.concept_class_id ?? '',
    standard_concept: r.standard_concept ?? '',
    concept_code: r.concept_code ?? '',
  });
  for (const r of readTable(path.join(base, 'phenotype_library_concepts.tsv'), 'tab')) concepts.push(toConcept(r));
  for (const f of ['synthea27nj/CONCEPT.csv', 'eunomia-gibleed/CONCEPT.csv']) for (const r of readTable(path.join(base, f), 'csv')) concepts.push(toConcept(r));
  const relationships: Array<{ c1: number; c2: number; rel: string }> = [];
  for (const f of ['synthea27nj/CONCEPT_RELATIONSHIP.csv', 'eunomia-gibleed/CONCEPT_RELATIONSHIP.csv']) {
    for (const r of readTable(path.join(base, f), 'csv')) {
      if (r.invalid_reason) continue;
      relationships.push({ c1: Number(r.concept_id_1), c2: Number(r.concept_id_2), rel: r.relationship_id ?? '' });
    }
  }
  const ancestors = readTable(path.join(base, 'eunomia-gibleed/CONCEPT_ANCESTOR.csv'), 'csv').map((r) => ({
    a: Number(r.ancestor_concept_id),
    d: Number(r.descendant_concept_id),
    min: Number(r.min_levels_of_separation),
    max: Number(r.max_levels_of_separation),
  }));
  const synonyms = readTable(path.join(base, 'eunomia-gibleed/CONCEPT_SYNONYM.csv'), 'csv').map((r) => ({
    id: Number(r.concept_id),
    name: r.concept_synonym_name ?? '',
  }));
  return { concepts, relationships, ancestors, synonyms };
}

export function readIcd10cmToSnomed(dataDir: string): Array<[string, string]> {
  const file = path.join(dataDir, 'omop-samples', 'icd10cm2snomed_2016.txt');
  if (!fs.existsSync(file)) return [];
  const out: Array<[string, string]> = [];
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/).slice(1)) {
    const f = line.split('|').map((x) => x.replace(/^"|"$/g, ''));
    if (f.length >= 3 && f[2] === 'Maps to') out.push([f[0]!, f[1]!]);
  }
  return out;
}
