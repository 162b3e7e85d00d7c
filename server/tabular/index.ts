/**
 * ICD-10-CM tabular notes (includes, inclusion terms, excludes1/excludes2, code first, use additional code, code also,
 * 7th-character rules) from the CDC/NCHS tabular XML in the reference data (`icd10cm-index/ICD10CM_FY2017_Full_XML.zip`,
 * FY2017: the only tabular XML we hold; codes added later have no notes here and the answer says so).
 *
 * Domain core: no HTTP, no database. The parsed notes are cached in `.cache/` (rebuilt when the zip changes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { cacheDir, dataDir } from '../config/paths';

export const NOTE_KINDS = ['inclusionTerm', 'includes', 'excludes1', 'excludes2', 'codeFirst', 'useAdditionalCode', 'codeAlso', 'notes'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

export interface TabularEntry {
  code: string;
  desc: string;
  notes: Partial<Record<NoteKind, string[]>>;
  /** 7th characters defined at this level: character → meaning. */
  seventh?: Record<string, string>;
  seventhNote?: string[];
}

export interface TabularNotes {
  code: string;
  source: { file: string; fiscal_year: number };
  found: boolean;
  /** The code and each level above it that carries notes (category first, the code itself last). */
  levels: TabularEntry[];
  /** 7th-character rules that apply to the code (its own or inherited from the nearest level that has them). */
  seventh: { from: string; characters: Record<string, string>; note: string[] } | null;
}

const ZIP = 'icd10cm-index/ICD10CM_FY2017_Full_XML.zip';
const FILE = 'icd10cm_tabular_2017.xml';
const FISCAL_YEAR = 2017;
const CACHE_VERSION = 1;

const decode = (s: string) =>
  s
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** Parses the tabular XML into entries by code (no dots). Exported for tests. */
export function parseTabular(xml: string): Map<string, TabularEntry & { parent: string | null }> {
  const out = new Map<string, TabularEntry & { parent: string | null }>();
  const stack: Array<TabularEntry & { parent: string | null }> = [];
  const re = /<(\/?)(diag|name|desc|note|extension|sevenChrDef|sevenChrNote|inclusionTerm|includes|excludes1|excludes2|codeFirst|useAdditionalCode|codeAlso|notes)\b([^>]*)>/g;
  let section: string | null = null;
  let m: RegExpExecArray | null;
  let textStart = 0;
  let extChar: string | null = null;
  while ((m = re.exec(xml))) {
    const [tag, close, name, attrs] = m;
    const top = stack[stack.length - 1];
    if (!close) {
      textStart = m.index + tag.length;
      if (name === 'diag') {
        const e = { code: '', desc: '', notes: {}, parent: top?.code ?? null } as TabularEntry & { parent: string | null };
        stack.push(e);
      } else if (name === 'extension') extChar = /char="([^"]+)"/.exec(attrs ?? '')?.[1] ?? null;
      else if (name !== 'name' && name !== 'desc' && name !== 'note') section = name;
      continue;
    }
    const text = decode(xml.slice(textStart, m.index));
    if (!top) {
      if (name !== 'note' && name !== 'extension') section = null;
      continue;
    }
    if (name === 'name' && !top.code) top.code = text.replace(/\./g, '');
    else if (name === 'desc' && !top.desc) top.desc = text;
    else if (name === 'extension' && extChar) (top.seventh ??= {})[extChar] = text;
    else if (name === 'note' && section === 'sevenChrNote') (top.seventhNote ??= []).push(text);
    else if (name === 'note' && section && (NOTE_KINDS as readonly string[]).includes(section)) ((top.notes[section as NoteKind] ??= []) as string[]).push(text);
    else if (name === 'diag') {
      stack.pop();
      if (top.code) out.set(top.code, top);
    } else if (name !== 'note') section = null;
  }
  return out;
}

let loaded: { key: string; map: Map<string, TabularEntry & { parent: string | null }> } | null = null;

function load(): Map<string, TabularEntry & { parent: string | null }> | null {
  const zip = path.join(dataDir(), ZIP);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(zip);
  } catch {
    return null;
  }
  const key = `${CACHE_VERSION}:${stat.size}:${stat.mtimeMs}`;
  if (loaded?.key === key) return loaded.map;
  const cacheFile = path.join(cacheDir(), 'tabular', `icd10cm-tabular-${FISCAL_YEAR}.json`);
  try {
    const cached = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as { key: string; entries: Array<TabularEntry & { parent: string | null }> };
    if (cached.key === key) {
      loaded = { key, map: new Map(cached.entries.map((e) => [e.code, e])) };
      return loaded.map;
    }
  } catch {
    /* no cache yet */
  }
  const files = unzipSync(new Uint8Array(fs.readFileSync(zip)), { filter: (f) => f.name.endsWith(FILE) });
  const bytes = Object.values(files)[0];
  if (!bytes) return null;
  const map = parseTabular(new TextDecoder().decode(bytes));
  loaded = { key, map };
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ key, entries: [...map.values()] }));
    fs.renameSync(tmp, cacheFile);
  } catch {
    /* read-only cache: parse again next start */
  }
  return map;
}

/** The tabular notes of an ICD-10-CM code (dots optional) and of the levels above it. */
export function tabularNotes(code: string): TabularNotes {
  const c = code.replace(/[.\s]/g, '').toUpperCase();
  const source = { file: `${ZIP} (${FILE})`, fiscal_year: FISCAL_YEAR };
  const map = load();
  if (!map) return { code: c, source, found: false, levels: [], seventh: null };
  // The code itself, or (for a code with a 7th character or placeholder X) the longest prefix the tabular lists.
  let key = c;
  while (key.length > 3 && !map.has(key)) key = key.slice(0, -1);
  const own = map.get(key);
  if (!own) return { code: c, source, found: false, levels: [], seventh: null };
  const chain: Array<TabularEntry & { parent: string | null }> = [];
  for (let e: (TabularEntry & { parent: string | null }) | undefined = own; e; e = e.parent ? map.get(e.parent) : undefined) chain.unshift(e);
  const withSeventh = [...chain].reverse().find((e) => e.seventh && Object.keys(e.seventh).length);
  return {
    code: c,
    source,
    found: key === c || (withSeventh !== undefined && c.length === 7),
    levels: chain.map(({ parent: _parent, ...e }) => e).filter((e) => e.code === key || Object.keys(e.notes).length || e.seventhNote?.length),
    seventh: withSeventh ? { from: withSeventh.code, characters: withSeventh.seventh!, note: withSeventh.seventhNote ?? [] } : null,
  };
}
