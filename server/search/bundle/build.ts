import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, dataDir as defaultDataDir } from '../../config/paths';
import { ATHENA_TABLES, ENGLISH_LANGUAGE_CONCEPT_ID, tsvLine } from '../athena';
import { indexDefaults, tabularCodes } from './index-defaults';
import {
  extractIndex,
  extractNeoplasmTable,
  extractTabular,
  readDrgs,
  readGem,
  readHcpcs,
  readIcd10cmOrder,
  readIcd10cmToSnomed,
  readIcd10cmXml,
  readIcd10pcsOrder,
  readIcd9,
  readSamples,
  readWhoIcd10,
  type IndexSynonym,
} from './sources';

/**
 * The public starter bundle: turns the reference files in $CODING_DATA_DIR into an Athena-format vocabulary
 * (eight tab-separated files), cached under .cache/vocab/. See README "Vocabulary search" for the choices:
 *
 *  - Real OMOP concept_ids where the OMOP samples give them; otherwise a stable synthetic id ≥ 2,000,000,000 derived
 *    from a hash of (vocabulary_id, concept_code), with deterministic probing on collision.
 *  - Standard concepts: a concept is standard ('S') unless it has a 'Maps to' to another concept; every 'Maps to'
 *    target is standard. ICD-10-CM stands in as the standard condition vocabulary (the public SNOMED extract has
 *    ~6k concepts), except the ICD-10-CM codes that OHDSI maps to a SNOMED concept present in the bundle. ICD-9-CM,
 *    ICD-9-Proc and WHO ICD-10 are non-standard and map through the GEMs (or the identical ICD-10-CM code).
 */
export const BUILDER_VERSION = 6;
const ICD10CM_YEAR = 2026;
const SYNTHETIC_BASE = 2_000_000_000;
const SYNTHETIC_SPAN = 2_147_483_647 - SYNTHETIC_BASE;

const isBillableCls = (cls: string) => / billing code$/.test(cls);

interface Concept {
  id: number;
  name: string;
  domain: string;
  vocab: string;
  cls: string;
  std: string;
  code: string;
}

export interface BuildOptions {
  outDir?: string;
  dataDir?: string;
  force?: boolean;
  progress?: (message: string) => void;
}

export interface BuildResult {
  dir: string;
  fingerprint: string;
  cached: boolean;
  counts: Record<string, number>;
}

const SOURCE_FILES = [
  `icd10cm-pcs/cms_${ICD10CM_YEAR}_dx.zip`,
  `icd10cm-pcs/cms_${ICD10CM_YEAR}_pr.zip`,
  'icd10cm-index/ICD10CM_FY2017_Full_XML.zip',
  'icd9/cms_v32.zip',
  'who-icd10/icd10_who_2019.txt',
  'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip',
  'gems/2018_I9gem.txt',
  'gems/gem_i9pcs.txt',
  'omop-samples/phenotype_library_concepts.tsv',
  'omop-samples/synthea27nj/CONCEPT.csv',
  'omop-samples/synthea27nj/CONCEPT_RELATIONSHIP.csv',
  'omop-samples/eunomia-gibleed/CONCEPT.csv',
  'omop-samples/icd10cm2snomed_2016.txt',
];

/** Fingerprint of the inputs (names, sizes, modification times) and of this builder's version. */
export function sourcesFingerprint(dir = defaultDataDir()): string {
  const h = createHash('sha256').update(`builder:${BUILDER_VERSION}`);
  for (const f of SOURCE_FILES) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) {
      h.update(`${f}:missing`);
      continue;
    }
    const st = fs.statSync(p);
    h.update(`${f}:${st.size}:${Math.floor(st.mtimeMs)}`);
  }
  const drg = path.join(dir, 'msdrg', 'tables');
  if (fs.existsSync(drg)) h.update(`drg:${fs.readdirSync(drg).sort().join(',')}`);
  return h.digest('hex');
}

export function defaultBundleDir(fingerprint: string): string {
  return path.join(cacheDir(), 'vocab', `starter-${fingerprint.slice(0, 16)}`);
}

export function readManifest(dir: string): { fingerprint: string; counts: Record<string, number> } | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { fingerprint: string; counts: Record<string, number> };
  } catch {
    return null;
  }
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const withDot = (code: string, at: number) => (code.length > at ? `${code.slice(0, at)}.${code.slice(at)}` : code);
const undot = (code: string) => code.replace(/\./g, '');

function icd10cmDomain(code: string): string {
  return /^[V-Z]/.test(code) ? 'Observation' : 'Condition';
}

function hcpcsDomain(code: string): string {
  if (code.startsWith('J')) return 'Drug';
  if (/^(A[4-9]|E|K|L|V)/.test(code)) return 'Device';
  if (code.startsWith('A0')) return 'Observation';
  return 'Procedure';
}

function icd9cmCode(raw: string): string {
  if (raw.startsWith('E')) return withDot(raw, 4);
  return withDot(raw, 3);
}

export async function buildStarterBundle(opts: BuildOptions = {}): Promise<BuildResult> {
  const dataDir = opts.dataDir ?? defaultDataDir();
  const progress = opts.progress ?? (() => undefined);
  const fingerprint = sourcesFingerprint(dataDir);
  const dir = opts.outDir ? path.resolve(opts.outDir) : defaultBundleDir(fingerprint);
  const prior = readManifest(dir);
  if (!opts.force && prior?.fingerprint === fingerprint && ATHENA_TABLES.every((t) => fs.existsSync(path.join(dir, t.file)))) {
    return { dir, fingerprint, cached: true, counts: prior.counts };
  }
  if (!fs.existsSync(path.join(dataDir, 'icd10cm-pcs'))) throw new Error(`Reference data not found in ${dataDir} (set CODING_DATA_DIR).`);

  const concepts = new Map<string, Concept>(); // key vocab|code
  const key = (vocab: string, code: string) => `${vocab}|${code}`;
  const add = (c: Omit<Concept, 'id'> & { id?: number }) => {
    const k = key(c.vocab, c.code);
    const prev = concepts.get(k);
    if (prev) {
      if (!prev.name && c.name) prev.name = c.name;
      return prev;
    }
    const rec: Concept = { id: c.id ?? 0, name: c.name, domain: c.domain, vocab: c.vocab, cls: c.cls, std: c.std, code: c.code };
    concepts.set(k, rec);
    return rec;
  };

  // --- OMOP samples: real ids (and the whole concept for the vocabularies we have no other source for).
  progress('reading OMOP samples');
  const samples = readSamples(dataDir);
  const KEEP_SAMPLE_VOCABS = new Set([
    'SNOMED',
    'RxNorm',
    'RxNorm Extension',
    'CPT4',
    'OPCS4',
    'LOINC',
    'ICD10CM',
    'ICD10PCS',
    'ICD9CM',
    'ICD9Proc',
    'HCPCS',
    'DRG',
    'ICD10',
  ]);
  const sampleById = new Map<number, (typeof samples.concepts)[number]>();
  const realIds = new Map<string, (typeof samples.concepts)[number]>();
  for (const s of samples.concepts) {
    if (!KEEP_SAMPLE_VOCABS.has(s.vocabulary_id) || !Number.isFinite(s.concept_id) || !s.concept_code) continue;
    if (!sampleById.has(s.concept_id)) sampleById.set(s.concept_id, s);
    const k = key(s.vocabulary_id, s.vocabulary_id === 'DRG' ? s.concept_code.padStart(3, '0') : s.concept_code);
    if (!realIds.has(k)) realIds.set(k, s);
  }
  const real = (vocab: string, code: string) => realIds.get(key(vocab, code))?.concept_id;

  // --- ICD-10-CM (FY2026 order file): titles and the header hierarchy.
  progress(`reading ICD-10-CM FY${ICD10CM_YEAR}`);
  const isA: Array<[Concept, Concept]> = [];
  const cmRows = readIcd10cmOrder(dataDir, ICD10CM_YEAR);
  const cmByUndotted = new Map<string, Concept>();
  for (const r of cmRows) {
    const code = withDot(r.code, 3);
    const cls = `${r.code.length}-char ${r.billable ? 'billing' : 'nonbill'} code`;
    const c = add({ id: real('ICD10CM', code), name: r.longTitle, domain: icd10cmDomain(r.code), vocab: 'ICD10CM', cls, std: 'S', code });
    cmByUndotted.set(r.code, c);
  }
  for (const r of cmRows) {
    for (let n = r.code.length - 1; n >= 3; n--) {
      const parent = cmByUndotted.get(r.code.slice(0, n));
      if (parent) {
        isA.push([cmByUndotted.get(r.code)!, parent]);
        break;
      }
    }
  }

  // --- ICD-10-PCS (FY2026): 7-character codes under their 3-character table headers.
  progress(`reading ICD-10-PCS FY${ICD10CM_YEAR}`);
  const pcsRows = readIcd10pcsOrder(dataDir, ICD10CM_YEAR);
  const pcsByCode = new Map<string, Concept>();
  for (const r of pcsRows) {
    const c = add({
      id: real('ICD10PCS', r.code),
      name: r.longTitle,
      domain: 'Procedure',
      vocab: 'ICD10PCS',
      cls: r.billable ? 'ICD10PCS' : 'ICD10PCS Hierarchy',
      std: 'S',
      code: r.code,
    });
    pcsByCode.set(r.code, c);
  }
  // Sample hierarchy concepts (4-6 characters) slot in between.
  for (const s of samples.concepts) {
    if (s.vocabulary_id === 'ICD10PCS' && !pcsByCode.has(s.concept_code)) {
      pcsByCode.set(
        s.concept_code,
        add({ id: s.concept_id, name: s.concept_name, domain: 'Procedure', vocab: 'ICD10PCS', cls: s.concept_class_id, std: 'S', code: s.concept_code }),
      );
    }
  }
  for (const [code, c] of pcsByCode) {
    for (let n = code.length - 1; n >= 3; n--) {
      const parent = pcsByCode.get(code.slice(0, n));
      if (parent) {
        isA.push([c, parent]);
        break;
      }
    }
  }

  // --- ICD-9-CM and ICD-9 procedures (v32).
  progress('reading ICD-9-CM v32');
  const icd9 = readIcd9(dataDir);
  const i9ByRaw = new Map<string, Concept>();
  for (const [raw, title] of icd9.dx) {
    const code = icd9cmCode(raw);
    const domain = /^[VE]/.test(raw) ? 'Observation' : 'Condition';
    i9ByRaw.set(raw, add({ id: real('ICD9CM', code), name: title, domain, vocab: 'ICD9CM', cls: `${raw.length}-dig billing code`, std: '', code }));
  }
  const i9pByRaw = new Map<string, Concept>();
  for (const [raw, title] of icd9.sg) {
    const code = withDot(raw, 2);
    i9pByRaw.set(
      raw,
      add({ id: real('ICD9Proc', code), name: title, domain: 'Procedure', vocab: 'ICD9Proc', cls: `${raw.length}-dig billing code`, std: '', code }),
    );
  }
  for (const s of samples.concepts) {
    if (s.vocabulary_id === 'ICD9Proc' && !i9pByRaw.has(undot(s.concept_code))) {
      i9pByRaw.set(
        undot(s.concept_code),
        add({ id: s.concept_id, name: s.concept_name, domain: 'Procedure', vocab: 'ICD9Proc', cls: s.concept_class_id, std: '', code: s.concept_code }),
      );
    }
  }
  for (const byRaw of [i9ByRaw, i9pByRaw]) {
    for (const [raw, c] of byRaw) {
      for (let n = raw.length - 1; n >= 2; n--) {
        const parent = byRaw.get(raw.slice(0, n));
        if (parent) {
          isA.push([c, parent]);
          break;
        }
      }
    }
  }

  // --- WHO ICD-10 2019.
  progress('reading WHO ICD-10 2019');
  const whoByCode = new Map<string, Concept>();
  for (const r of readWhoIcd10(dataDir)) {
    if (r.kind !== 'code') continue;
    const cls = r.code.length === 3 ? 'ICD10 Hierarchy' : 'ICD10 code';
    whoByCode.set(r.code, add({ id: real('ICD10', r.code), name: r.title, domain: icd10cmDomain(r.code), vocab: 'ICD10', cls, std: '', code: r.code }));
  }
  for (const [code, c] of whoByCode) {
    if (code.length > 3) {
      const parent = whoByCode.get(code.slice(0, 3));
      if (parent) isA.push([c, parent]);
    }
  }

  // --- HCPCS 2019 and MS-DRG.
  progress('reading HCPCS 2019 and MS-DRG titles');
  for (const r of readHcpcs(dataDir))
    add({ id: real('HCPCS', r.code), name: r.title, domain: hcpcsDomain(r.code), vocab: 'HCPCS', cls: 'HCPCS', std: 'S', code: r.code });
  for (const r of readDrgs(dataDir))
    add({ id: real('DRG', r.code), name: r.title, domain: 'Observation', vocab: 'DRG', cls: 'MS-DRG', std: 'S', code: r.code });

  // --- The rest of the samples as they are (SNOMED, RxNorm, CPT4, OPCS4, LOINC, and codes our files lack).
  for (const s of samples.concepts) {
    if (!KEEP_SAMPLE_VOCABS.has(s.vocabulary_id) || !s.concept_code || !Number.isFinite(s.concept_id)) continue;
    const code = s.vocabulary_id === 'DRG' ? s.concept_code.padStart(3, '0') : s.concept_code;
    add({
      id: s.concept_id,
      name: s.concept_name,
      domain: s.domain_id,
      vocab: s.vocabulary_id,
      cls: s.concept_class_id,
      std: s.standard_concept === 'C' ? 'C' : s.standard_concept,
      code,
    });
  }

  // --- Concept ids: real where known, otherwise stable synthetic ids.
  progress('assigning concept ids');
  const used = new Set<number>();
  for (const c of concepts.values()) {
    if (c.id) {
      if (used.has(c.id))
        c.id = 0; // a real id claimed twice (two codes): keep the first
      else used.add(c.id);
    }
  }
  const pending = [...concepts.values()].filter((c) => !c.id).sort((a, b) => (a.vocab + '|' + a.code < b.vocab + '|' + b.code ? -1 : 1));
  for (const c of pending) {
    let id = SYNTHETIC_BASE + (fnv1a(`${c.vocab}|${c.code}`) % SYNTHETIC_SPAN);
    while (used.has(id)) id = id + 1 > 2_147_483_647 ? SYNTHETIC_BASE : id + 1;
    c.id = id;
    used.add(id);
  }
  const byId = new Map<number, Concept>();
  for (const c of concepts.values()) byId.set(c.id, c);

  // --- 'Maps to' edges: GEMs, OHDSI ICD10CM→SNOMED, WHO ICD-10 → identical ICD-10-CM code, and the samples'.
  progress('building Maps to edges');
  const mapsTo = new Map<number, Set<number>>();
  const addMap = (a: Concept | undefined, b: Concept | undefined) => {
    if (!a || !b || a.id === b.id) return;
    let s = mapsTo.get(a.id);
    if (!s) mapsTo.set(a.id, (s = new Set()));
    s.add(b.id);
  };
  const snomedByCode = new Map<string, Concept>();
  for (const c of concepts.values()) if (c.vocab === 'SNOMED') snomedByCode.set(c.code, c);
  for (const [cm, sct] of readIcd10cmToSnomed(dataDir)) addMap(concepts.get(key('ICD10CM', cm)), snomedByCode.get(sct));
  for (const g of readGem(dataDir, '2018_I9gem.txt')) if (!g.noMap) addMap(i9ByRaw.get(g.source), cmByUndotted.get(g.target));
  for (const g of readGem(dataDir, 'gem_i9pcs.txt')) if (!g.noMap) addMap(i9pByRaw.get(g.source), pcsByCode.get(g.target));
  for (const [code, c] of whoByCode) addMap(c, concepts.get(key('ICD10CM', code)));
  const otherRels: Array<[number, number, string]> = [];
  for (const r of samples.relationships) {
    const a = byId.get(r.c1);
    const b = byId.get(r.c2);
    if (!a || !b) continue;
    if (r.rel === 'Maps to') addMap(a, b);
    else if (r.rel === 'Is a') isA.push([a, b]);
  }

  // Standardness: a concept with an outgoing map is non-standard; targets that are themselves mapped are replaced by
  // their own targets, so every 'Maps to' ends at a standard concept.
  for (const [src] of mapsTo) {
    const c = byId.get(src)!;
    c.std = '';
  }
  const resolveTargets = (id: number, depth: number): number[] => {
    const next = mapsTo.get(id);
    if (!next || depth > 3) return [id];
    return [...next].flatMap((t) => (mapsTo.has(t) ? resolveTargets(t, depth + 1) : [t]));
  };
  const finalMaps: Array<[number, number]> = [];
  for (const [src, targets] of mapsTo) {
    const seen = new Set<number>();
    for (const t of targets) {
      for (const f of mapsTo.has(t) ? resolveTargets(t, 1) : [t]) {
        if (f === src || seen.has(f) || mapsTo.has(f)) continue;
        seen.add(f);
        finalMaps.push([src, f]);
      }
    }
  }
  for (const [, t] of finalMaps) {
    const c = byId.get(t)!;
    if (c.std !== 'S') c.std = 'S';
  }

  // --- Synonyms: ICD-10-CM tabular inclusion terms, the Alphabetic Index (with see-references) and the neoplasm table.
  progress('extracting ICD-10-CM index and tabular synonyms');
  const synonyms = new Map<number, Map<string, string>>();
  const addSyn = (c: Concept | undefined, text: string) => {
    const t = text.replace(/\s+/g, ' ').trim();
    if (!c || t.length < 2 || t.length > 1000) return;
    const k = t.toLowerCase();
    if (k === c.name.toLowerCase()) return;
    let m = synonyms.get(c.id);
    if (!m) synonyms.set(c.id, (m = new Map()));
    if (!m.has(k)) m.set(k, t);
  };
  const xml = readIcd10cmXml(dataDir);
  if (xml) {
    const lists: IndexSynonym[][] = [extractTabular(xml.tabular), extractIndex(xml.index), extractNeoplasmTable(xml.neoplasm)];
    // the 2017 index's default codes, carried over to the current tabular (index-defaults.ts)
    const defaults = indexDefaults(new Map(cmRows.map((r) => [r.code, { title: r.longTitle, billable: r.billable }])), tabularCodes(xml.tabular));
    for (const list of lists) {
      for (const s of list) {
        let raw = undot(s.code.replace(/-+$/, '').toUpperCase());
        let target: Concept | undefined;
        while (raw.length >= 3 && !(target = cmByUndotted.get(raw))) raw = raw.slice(0, -1);
        const d = target && (s.source === 'index' || s.source === 'index-see') ? defaults.defaultFor(raw, s.text) : null;
        const dc = d ? cmByUndotted.get(d) : undefined;
        if (dc && target && isBillableCls(target.cls)) {
          // a newer unspecified code replaces the 2017 default: the entry moves there
          addSyn(dc, s.text);
          continue;
        }
        addSyn(target, s.text);
        // a header (or a code expanded since 2017) keeps the entry, and its default billable code gets it too
        if (dc) addSyn(dc, s.text);
      }
    }
  }
  for (const s of samples.synonyms) {
    const c = byId.get(s.id);
    if (c) addSyn(c, s.name);
  }

  // --- Ancestors from 'Is a' (all vocabularies), merged with the samples' ancestor rows.
  progress('computing ancestors');
  const parents = new Map<number, number[]>();
  const isASeen = new Set<string>();
  const isAEdges: Array<[number, number]> = [];
  for (const [a, b] of isA) {
    const k = `${a.id}:${b.id}`;
    if (a.id === b.id || isASeen.has(k)) continue;
    isASeen.add(k);
    isAEdges.push([a.id, b.id]);
    (parents.get(a.id) ?? parents.set(a.id, []).get(a.id)!).push(b.id);
  }
  const ancestors = new Map<string, [number, number, number, number]>();
  for (const id of byId.keys()) {
    if (!parents.has(id)) continue;
    const min = new Map<number, number>();
    const max = new Map<number, number>();
    let frontier = [id];
    for (let depth = 1; frontier.length && depth <= 30; depth++) {
      const next: number[] = [];
      for (const f of frontier) {
        for (const p of parents.get(f) ?? []) {
          if (!min.has(p)) {
            min.set(p, depth);
            next.push(p);
          }
          max.set(p, Math.max(max.get(p) ?? 0, depth));
        }
      }
      frontier = next;
    }
    for (const [a, lv] of min) ancestors.set(`${a}:${id}`, [a, id, lv, max.get(a) ?? lv]);
  }
  for (const r of samples.ancestors) {
    if (!byId.has(r.a) || !byId.has(r.d) || r.a === r.d) continue;
    const k = `${r.a}:${r.d}`;
    if (!ancestors.has(k)) ancestors.set(k, [r.a, r.d, r.min, r.max]);
  }

  // --- Write the bundle.
  progress(`writing the bundle to ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.rmSync(path.join(dir, 'manifest.json'), { force: true });
  const counts: Record<string, number> = {};
  const write = (file: string, header: string[], rows: Iterable<Array<string | number | null>>) => {
    const fd = fs.openSync(path.join(dir, file), 'w');
    let buf = header.join('\t') + '\n';
    let n = 0;
    for (const r of rows) {
      buf += tsvLine(r);
      n++;
      if (buf.length > 1 << 20) {
        fs.writeSync(fd, buf);
        buf = '';
      }
    }
    fs.writeSync(fd, buf);
    fs.closeSync(fd);
    counts[file] = n;
  };
  const cols = (table: string) => ATHENA_TABLES.find((t) => t.table === table)!.columns.map((c) => c.name);
  const START = '19700101';
  const END = '20991231';
  const all = [...byId.values()].sort((a, b) => a.id - b.id);
  write(
    'CONCEPT.csv',
    cols('concept'),
    all.map((c) => [c.id, c.name || c.code, c.domain, c.vocab, c.cls, c.std || null, c.code, START, END, null]),
  );
  write(
    'CONCEPT_SYNONYM.csv',
    cols('concept_synonym'),
    (function* () {
      for (const [id, m] of synonyms) for (const t of m.values()) yield [id, t, ENGLISH_LANGUAGE_CONCEPT_ID];
    })(),
  );
  write(
    'CONCEPT_RELATIONSHIP.csv',
    cols('concept_relationship'),
    (function* () {
      for (const [a, b] of isAEdges) {
        yield [a, b, 'Is a', START, END, null];
        yield [b, a, 'Subsumes', START, END, null];
      }
      for (const [a, b] of finalMaps) {
        yield [a, b, 'Maps to', START, END, null];
        yield [b, a, 'Mapped from', START, END, null];
      }
      for (const [a, b, r] of otherRels) yield [a, b, r, START, END, null];
    })(),
  );
  write('CONCEPT_ANCESTOR.csv', cols('concept_ancestor'), ancestors.values());

  const vocabNames: Record<string, [string, string, string]> = {
    ICD10CM: [
      'International Classification of Diseases, Tenth Revision, Clinical Modification (NCHS)',
      'https://www.cdc.gov/nchs/icd/icd-10-cm/',
      `FY${ICD10CM_YEAR}`,
    ],
    ICD10PCS: ['ICD-10 Procedure Coding System (CMS)', 'https://www.cms.gov/medicare/coding-billing/icd-10-codes', `FY${ICD10CM_YEAR}`],
    ICD9CM: ['International Classification of Diseases, Ninth Revision, Clinical Modification, Volume 1 and 2 (NCHS)', 'https://www.cms.gov/', 'v32'],
    ICD9Proc: ['International Classification of Diseases, Ninth Revision, Clinical Modification, Volume 3 (NCHS)', 'https://www.cms.gov/', 'v32'],
    ICD10: ['International Classification of Diseases, Tenth Revision (WHO)', 'https://icd.who.int/browse10/', '2019'],
    HCPCS: ['Healthcare Common Procedure Coding System (CMS)', 'https://www.cms.gov/medicare/coding-billing/healthcare-common-procedure-system', '2019'],
    DRG: ['Diagnosis-related group (CMS)', 'https://www.cms.gov/', 'MS-DRG v43'],
  };
  const vocabs = [...new Set(all.map((c) => c.vocab))].sort();
  write(
    'VOCABULARY.csv',
    cols('vocabulary'),
    vocabs.map((v) => [v, vocabNames[v]?.[0] ?? v, vocabNames[v]?.[1] ?? 'OMOP sample extract', vocabNames[v]?.[2] ?? 'sample', 0]),
  );
  const domains = [...new Set(all.map((c) => c.domain))].sort();
  write(
    'DOMAIN.csv',
    cols('domain'),
    domains.map((d) => [d, d, 0]),
  );
  const classes = [...new Set(all.map((c) => c.cls))].sort();
  write(
    'CONCEPT_CLASS.csv',
    cols('concept_class'),
    classes.map((c) => [c, c, 0]),
  );
  write('RELATIONSHIP.csv', cols('relationship'), [
    ['Is a', 'Is a', '1', '1', 'Subsumes', 0],
    ['Subsumes', 'Subsumes', '1', '1', 'Is a', 0],
    ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from', 0],
    ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to', 0],
  ]);
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ fingerprint, builder_version: BUILDER_VERSION, built_at: new Date().toISOString(), counts }, null, 2),
  );
  return { dir, fingerprint, cached: false, counts };
}
