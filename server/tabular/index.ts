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

/** Where a level's notes come from: chapter and section notes apply to every code under them. */
export type TabularLevel = 'chapter' | 'section' | 'category' | 'subcategory' | 'code';

export interface TabularNotes {
  code: string;
  source: { file: string; fiscal_year: number };
  found: boolean;
  /**
   * The code and each level above it that carries notes: chapter first, then section, category, subcategories, the
   * code itself last. A chapter's `code` is its range ("I00-I99"), a section's its id ("I20-I25").
   */
  levels: Array<TabularEntry & { level: TabularLevel }>;
  /** 7th-character rules that apply to the code (its own or inherited from the nearest level that has them). */
  seventh: { from: string; characters: Record<string, string>; note: string[] } | null;
}

const ZIP = 'icd10cm-index/ICD10CM_FY2017_Full_XML.zip';
const FILE = 'icd10cm_tabular_2017.xml';
const FISCAL_YEAR = 2017;
const CACHE_VERSION = 2;

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

type Entry = TabularEntry & { parent: string | null };

/** A chapter or section of the tabular: its notes apply to every code under it. */
export interface TabularGroup {
  /** Chapter: its code range ("I00-I99"); section: its id ("I20-I25"). */
  code: string;
  desc: string;
  notes: Partial<Record<NoteKind, string[]>>;
}

export interface TabularDocument {
  /** Entries by code (no dots). */
  codes: Map<string, Entry>;
  /** Chapters by number ("9"), with their code range as `code`. */
  chapters: Map<string, TabularGroup>;
  /** Sections by id ("I20-I25"), with the number of the chapter they are in. */
  sections: Map<string, TabularGroup & { chapter: string }>;
  /** Category (3 characters) → the id of the section it is in. */
  sectionOf: Map<string, string>;
}

/** Parses the tabular XML: entries by code, and the chapters and sections with their own notes. Exported for tests. */
export function parseTabularDocument(xml: string): TabularDocument {
  const out = new Map<string, Entry>();
  const chapters = new Map<string, TabularGroup>();
  const sections = new Map<string, TabularGroup & { chapter: string }>();
  const sectionOf = new Map<string, string>();
  const stack: Entry[] = [];
  const re =
    /<(\/?)(chapter|section|diag|name|desc|note|extension|sevenChrDef|sevenChrNote|inclusionTerm|includes|excludes1|excludes2|codeFirst|useAdditionalCode|codeAlso|notes)\b([^>]*)>/g;
  let kind: string | null = null;
  let chapter: (TabularGroup & { name: string }) | null = null;
  let sec: (TabularGroup & { chapter: string }) | null = null;
  let m: RegExpExecArray | null;
  let textStart = 0;
  let extChar: string | null = null;
  const addNote = (notes: TabularGroup['notes'], text: string) => {
    if (kind && (NOTE_KINDS as readonly string[]).includes(kind)) ((notes[kind as NoteKind] ??= []) as string[]).push(text);
  };
  while ((m = re.exec(xml))) {
    const [tag, close, name, attrs] = m;
    const top = stack[stack.length - 1];
    if (!close) {
      textStart = m.index + tag.length;
      if (name === 'diag') {
        const e = { code: '', desc: '', notes: {}, parent: top?.code ?? null } as Entry;
        stack.push(e);
      } else if (name === 'chapter') {
        chapter = { code: '', name: '', desc: '', notes: {} };
        kind = null;
      } else if (name === 'section') {
        const id = /id="([^"]+)"/.exec(attrs ?? '')?.[1] ?? '';
        sec = { code: id, desc: '', notes: {}, chapter: chapter?.name ?? '' };
        kind = null;
      } else if (name === 'extension') extChar = /char="([^"]+)"/.exec(attrs ?? '')?.[1] ?? null;
      else if (name !== 'name' && name !== 'desc' && name !== 'note') kind = name;
      continue;
    }
    const text = decode(xml.slice(textStart, m.index));
    if (!top) {
      // chapter and section level (outside any diag)
      const group = sec ?? chapter;
      if (name === 'chapter') {
        if (chapter?.name) chapters.set(chapter.name, { code: chapter.code, desc: chapter.desc, notes: chapter.notes });
        chapter = null;
        kind = null;
      } else if (name === 'section') {
        if (sec?.code) sections.set(sec.code, sec);
        sec = null;
        kind = null;
      } else if (name === 'name' && chapter && !sec && !chapter.name) chapter.name = text;
      else if (name === 'desc' && group && !group.desc) {
        group.desc = text;
        if (group === chapter) chapter.code = /\(([A-Z]\d{2}-[A-Z]\d{2})\)\s*$/.exec(text)?.[1] ?? '';
      } else if (name === 'note' && group) addNote(group.notes, text);
      else if (name !== 'note' && name !== 'extension') kind = null;
      continue;
    }
    if (name === 'name' && !top.code) {
      top.code = text.replace(/\./g, '');
      if (stack.length === 1 && sec) sectionOf.set(top.code, sec.code);
    } else if (name === 'desc' && !top.desc) top.desc = text;
    else if (name === 'extension' && extChar) (top.seventh ??= {})[extChar] = text;
    else if (name === 'note' && kind === 'sevenChrNote') (top.seventhNote ??= []).push(text);
    else if (name === 'note') addNote(top.notes, text);
    else if (name === 'diag') {
      stack.pop();
      if (top.code) out.set(top.code, top);
    } else if (name !== 'note') kind = null;
  }
  return { codes: out, chapters, sections, sectionOf };
}

/** Parses the tabular XML into entries by code (no dots). Exported for tests. */
export function parseTabular(xml: string): Map<string, Entry> {
  return parseTabularDocument(xml).codes;
}

let loaded: { key: string; doc: TabularDocument } | null = null;

interface CacheFile {
  key: string;
  entries: Entry[];
  chapters: Array<[string, TabularGroup]>;
  sections: Array<[string, TabularGroup & { chapter: string }]>;
  sectionOf: Array<[string, string]>;
}

function load(): TabularDocument | null {
  const zip = path.join(dataDir(), ZIP);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(zip);
  } catch {
    return null;
  }
  const key = `${CACHE_VERSION}:${stat.size}:${stat.mtimeMs}`;
  if (loaded?.key === key) return loaded.doc;
  const cacheFile = path.join(cacheDir(), 'tabular', `icd10cm-tabular-${FISCAL_YEAR}.json`);
  try {
    const cached = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as CacheFile;
    if (cached.key === key) {
      const doc: TabularDocument = {
        codes: new Map(cached.entries.map((e) => [e.code, e])),
        chapters: new Map(cached.chapters),
        sections: new Map(cached.sections),
        sectionOf: new Map(cached.sectionOf),
      };
      loaded = { key, doc };
      return doc;
    }
  } catch {
    /* no cache yet */
  }
  const files = unzipSync(new Uint8Array(fs.readFileSync(zip)), { filter: (f) => f.name.endsWith(FILE) });
  const bytes = Object.values(files)[0];
  if (!bytes) return null;
  const doc = parseTabularDocument(new TextDecoder().decode(bytes));
  loaded = { key, doc };
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    const out: CacheFile = { key, entries: [...doc.codes.values()], chapters: [...doc.chapters], sections: [...doc.sections], sectionOf: [...doc.sectionOf] };
    fs.writeFileSync(tmp, JSON.stringify(out));
    fs.renameSync(tmp, cacheFile);
  } catch {
    /* read-only cache: parse again next start */
  }
  return doc;
}

/** The parsed FY2017 tabular (chapters, sections, codes), or null when the reference data is missing. */
export function tabularDocument(): TabularDocument | null {
  return load();
}

/** The tabular notes of an ICD-10-CM code (dots optional) and of the levels above it, chapter and section included. */
export function tabularNotes(code: string): TabularNotes {
  const c = code.replace(/[.\s]/g, '').toUpperCase();
  const source = { file: `${ZIP} (${FILE})`, fiscal_year: FISCAL_YEAR };
  const doc = load();
  if (!doc) return { code: c, source, found: false, levels: [], seventh: null };
  const map = doc.codes;
  // The code itself, or (for a code with a 7th character or placeholder X) the longest prefix the tabular lists.
  let key = c;
  while (key.length > 3 && !map.has(key)) key = key.slice(0, -1);
  const own = map.get(key);
  if (!own) return { code: c, source, found: false, levels: [], seventh: null };
  const chain: Entry[] = [];
  for (let e: Entry | undefined = own; e; e = e.parent ? map.get(e.parent) : undefined) chain.unshift(e);
  const withSeventh = [...chain].reverse().find((e) => e.seventh && Object.keys(e.seventh).length);
  const levels: TabularNotes['levels'] = [];
  const sectionId = doc.sectionOf.get(chain[0]!.code);
  const sec = sectionId ? doc.sections.get(sectionId) : undefined;
  const chap = sec ? doc.chapters.get(sec.chapter) : undefined;
  if (chap && Object.keys(chap.notes).length)
    levels.push({ code: chap.code || `Chapter ${sec!.chapter}`, desc: `Chapter ${sec!.chapter}: ${chap.desc}`, notes: chap.notes, level: 'chapter' });
  if (sec && Object.keys(sec.notes).length) levels.push({ code: sec.code, desc: sec.desc, notes: sec.notes, level: 'section' });
  chain.forEach(({ parent: _parent, ...e }, i) => {
    if (e.code !== key && !Object.keys(e.notes).length && !e.seventhNote?.length) return;
    levels.push({ ...e, level: e.code === key && i > 0 ? 'code' : i === 0 ? 'category' : 'subcategory' });
  });
  return {
    code: c,
    source,
    found: key === c || (withSeventh !== undefined && c.length === 7),
    levels,
    seventh: withSeventh ? { from: withSeventh.code, characters: withSeventh.seventh!, note: withSeventh.seventhNote ?? [] } : null,
  };
}
