/**
 * Detail path: which codes "affect" the DRG, as the CMS grouper marks them (its per-code `affects` flag), reported
 * per diagnosis and procedure. Never on the fast path.
 */
import { DXF_INCIDENT, PRC_NORDRUGSTENT, PRC_NORSTENT, PRC_SGLANTFUSE, PRC_SGLANTSECTX, PRC_SGLPOSTFUSE, PRC_SGLPOSTFUSE1, SYNTHETIC_FLAGS } from '../compile';
import type { FormulaNode } from '../formula';
import type { VersionLogic } from '../logic';
import type { PassOutcome } from './assignment';
import type { CaseState } from './state';

const FLAG_SET = new Set<string>(SYNTHETIC_FLAGS);

/** What a formula operand means for marking, worked out once per version and operand. */
interface Operand {
  /** `PREFIX:name` or bare `name`, as in the formula. */
  key: string;
  kind: 'MCC' | 'CC' | 'SDX' | 'ANY' | 'BARE' | 'OTHER';
  /** Attribute id the operand tests in the mask (-1: none can carry it). */
  test: number;
  prefix: 'PDX' | 'SDX' | 'ANY' | 'ONLY' | '';
  /** Attribute id of the name (SDX:/ANY:/bare operands), -1 when no code carries it. */
  nameId: number;
  /** A bare procedure attribute (not a flag the grouper computes): marks the procedures that carry it. */
  procedure: boolean;
  /** A counting flag (BILATERAL, FOUR_STENTS …): marks the procedures it counted. */
  counted: Counted | null;
  /** MULTST: marks every secondary diagnosis with a significant-trauma site. */
  multst: boolean;
}

interface Counted {
  mask: number;
  test?: (c: number) => boolean;
}

/** A formula tree with its operands resolved (the marking counterpart of a compiled predicate). */
type Node = { kind: 'or' | 'and'; items: Node[] } | { kind: 'not'; item: Node } | { kind: 'const'; value: boolean } | { kind: 'operand'; op: Operand };

/** Counting flags mark the procedures they counted: prCnt bits, and an extra test on the procedure's bits. */
const COUNTED: Record<string, Counted> = {
  BILATERAL: { mask: 63 },
  FOUR_VESSELS: { mask: 15 << 11 },
  FOUR_STENTS: { mask: 7 << 6, test: (c) => (c & (PRC_NORSTENT | PRC_NORDRUGSTENT)) !== 0 },
  FOUR_DRUG_ELUTING_STENTS: { mask: 7 << 6, test: (c) => (c & PRC_NORDRUGSTENT) !== 0 },
  FOUR_NON_DRUG_ELUTING_STENTS: { mask: 7 << 6, test: (c) => (c & PRC_NORSTENT) !== 0 },
  SINGLEFUSIONCTR: { mask: PRC_SGLANTFUSE | PRC_SGLPOSTFUSE },
  MULTFUSE: { mask: PRC_SGLANTFUSE | PRC_SGLPOSTFUSE1 },
  SGLANTCTR: { mask: PRC_SGLANTFUSE },
  SGLPOST1CTR: { mask: PRC_SGLPOSTFUSE1 },
  SGLANTSECTXCTR: { mask: PRC_SGLANTSECTX },
  SGLPOSTFUSECTR: { mask: PRC_SGLPOSTFUSE },
};

interface MarkingCache {
  trees: Array<Node | undefined>;
  operands: Map<string, Operand>;
}
const caches = new WeakMap<VersionLogic, MarkingCache>();

function cacheOf(L: VersionLogic): MarkingCache {
  let c = caches.get(L);
  if (!c) caches.set(L, (c = { trees: [], operands: new Map() }));
  return c;
}

function operandOf(L: VersionLogic, prefix: Operand['prefix'], name: string): Operand {
  const c = cacheOf(L);
  const key = prefix ? `${prefix}:${name}` : name;
  let op = c.operands.get(key);
  if (!op) {
    const kind: Operand['kind'] =
      prefix === '' && name === 'MCC'
        ? 'MCC'
        : prefix === '' && name === 'CC'
          ? 'CC'
          : prefix === 'SDX'
            ? 'SDX'
            : prefix === 'ANY'
              ? 'ANY'
              : prefix === ''
                ? 'BARE'
                : 'OTHER';
    const nameId = L.A.get(name) ?? -1;
    op = {
      key,
      kind,
      prefix,
      test: kind === 'MCC' || kind === 'CC' ? -1 : (L.A.get(prefix === 'ONLY' ? `ONLY:${name}` : name) ?? -1),
      nameId,
      procedure: kind === 'BARE' && nameId >= 0 && !FLAG_SET.has(name),
      counted: (Object.hasOwn(COUNTED, key) ? COUNTED[key] : null) ?? null,
      multst: key === 'MULTST',
    };
    c.operands.set(key, op);
  }
  return op;
}

function resolve(L: VersionLogic, n: FormulaNode): Node {
  switch (n.kind) {
    case 'or':
    case 'and':
      return { kind: n.kind, items: n.items.map((x) => resolve(L, x)) };
    case 'not':
      return { kind: 'not', item: resolve(L, n.item) };
    case 'const':
      return { kind: 'const', value: n.value };
    case 'operand':
      return { kind: 'operand', op: operandOf(L, n.prefix, n.name) };
  }
}

function treeOf(L: VersionLogic, row: number): Node {
  const c = cacheOf(L);
  let t = c.trees[row];
  if (!t) c.trees[row] = t = resolve(L, L.astOf(row));
  return t;
}

/** One operand against the current mask (same semantics as the compiled predicate). */
function holds(s: CaseState, op: Operand, bit: number, v: number): boolean {
  if (op.kind === 'MCC') return v === 2;
  if (op.kind === 'CC') return v === 1;
  const id = op.test;
  if (id < 0) return false;
  const g = s.g;
  switch (op.prefix) {
    case 'PDX':
      return s.P[id] === g;
    case 'SDX':
      return s.S[id] === g;
    case 'ANY':
      return s.P[id] === g || s.S[id] === g;
    default:
      return s.B[id] === g && (bit === 0 || (s.U[id] & bit) === 0);
  }
}

function evaluate(s: CaseState, n: Node, bit: number, v: number): boolean {
  switch (n.kind) {
    case 'or':
      for (const x of n.items) if (evaluate(s, x, bit, v)) return true;
      return false;
    case 'and':
      for (const x of n.items) if (!evaluate(s, x, bit, v)) return false;
      return true;
    case 'not':
      return !evaluate(s, n.item, bit, v);
    case 'const':
      return n.value;
    case 'operand':
      return holds(s, n.op, bit, v);
  }
}

/**
 * The operands that make a formula true, in order, each once: every child of a true AND, the first true alternative
 * of an OR (a negation contributes nothing). Returns whether the formula is true; a false branch adds nothing.
 */
function collect(s: CaseState, n: Node, bit: number, v: number, out: Operand[]): boolean {
  switch (n.kind) {
    case 'and': {
      const mark = out.length;
      for (const x of n.items) {
        if (!collect(s, x, bit, v, out)) {
          out.length = mark;
          return false;
        }
      }
      return true;
    }
    case 'or':
      for (const x of n.items) if (collect(s, x, bit, v, out)) return true;
      return false;
    case 'not':
      return !evaluate(s, n.item, bit, v);
    case 'const':
      return n.value;
    case 'operand': {
      if (!holds(s, n.op, bit, v)) return false;
      if (!out.includes(n.op)) out.push(n.op);
      return true;
    }
  }
}

function hasDxAttr(L: VersionLogic, i: number, id: number): boolean {
  if (id < 0) return false;
  const t = L.t;
  for (let q = t.dxAttrOff[i], qe = t.dxAttrOff[i + 1]; q < qe; q++) if (t.dxAttrIds[q] === id) return true;
  return false;
}

function hasPrAttr(L: VersionLogic, p: number, id: number): boolean {
  if (id < 0) return false;
  const t = L.t;
  for (let q = t.prAttrOff[p], qe = t.prAttrOff[p + 1]; q < qe; q++) if (t.prAttrIds[q] === id) return true;
  return false;
}

/**
 * Marking ("affects DRG"), as the CMS grouper reports it. For every row of the chain that produced
 * the DRG (reroute rows and the assigning row) the operands that made it true are collected (all
 * children of an AND, the first true alternative of an OR). Secondary diagnoses are visited in
 * clinical-significance order (MCC, CC, others; then by code); each takes the first remaining operand
 * it supplies: an `SDX:`/`ANY:` list it has (ANY only when the principal diagnosis lacks it), or the
 * row's CC/MCC level when its own level counts (not excluded, not suppressed by the row). MULTST
 * marks the codes with a significant-trauma site. In MDC 15 a non-"incident" secondary diagnosis
 * that kept the case out of DRG 795 is marked. Procedures: the first one carrying all the row's
 * procedure lists, else per list the first one carrying it, else the components of a cluster.
 */
export function markPass(L: VersionLogic, s: CaseState, out: PassOutcome, final: boolean, dxMarks: Uint8Array, prMarks: Uint8Array): void {
  const bitMark = final ? 2 : 1;
  if (out.grc !== 'OK') return;
  dxMarks[0] |= bitMark;
  if (out.row < 0) return;
  for (const r of [out.via0, out.via1, out.row]) {
    // the assigning row, and a pre-MDC reroute row (multiple trauma, HIV, kidney transplant)
    if (r < 0 || (r !== out.row && L.rows[r].mdc !== 0)) continue;
    markRow(L, s, r, r === out.row ? out.severity : s.sev(L.rows[r].supp), bitMark, dxMarks, prMarks);
  }
  const row = L.rows[out.row];
  const t = L.t;
  const inc = L.F['ONLY:incident'];
  if (row.mdc === 15 && row.drg !== 795 && inc >= 0 && s.pdx >= 0 && t.dxFlags[s.pdx] & DXF_INCIDENT && s.B[inc] !== s.g) {
    for (const k of clinicalOrder(L, s)) {
      if (!(t.dxFlags[s.dxIdx[k]] & DXF_INCIDENT)) {
        dxMarks[k] |= bitMark;
        break;
      }
    }
  }
}

/**
 * Valid secondary diagnoses in clinical-significance order: MCC, CC, the rest; then by code (once per case). Codes
 * are numbered in code order, so comparing their indexes compares the codes.
 */
export function clinicalOrder(L: VersionLogic, s: CaseState): number[] {
  if (s.clinicalOrderGen === s.g) return s.clinicalOrder;
  const sevOf = L.t.dxSev;
  const idx = s.dxIdx;
  const order: number[] = [];
  for (let k = 1; k < s.nDx; k++) {
    const i = idx[k];
    if (i < 0) continue;
    // insertion sort: a handful of codes
    let at = order.length;
    order.push(k);
    while (at > 0) {
      const o = order[at - 1];
      if ((sevOf[i] - sevOf[idx[o]] || idx[o] - i) <= 0) break; // > 0: the new code goes before o
      order[at] = o;
      at--;
    }
    order[at] = k;
  }
  s.clinicalOrder = order;
  s.clinicalOrderGen = s.g;
  return order;
}

/**
 * Procedures in marking order: the principal (first-listed) procedure (from v42 on only when it is an O.R.
 * procedure), then the others by code (then a non-O.R. principal procedure). Once per case.
 */
function procedureOrder(L: VersionLogic, s: CaseState): number[] {
  if (s.procedureOrderGen === s.g) return s.procedureOrder;
  const order: number[] = [];
  for (let j = 1; j < s.nPr; j++) order.push(j);
  order.sort((a, b) => (s.prCodes[a] < s.prCodes[b] ? -1 : s.prCodes[a] > s.prCodes[b] ? 1 : a - b));
  if (s.prIdx[0] >= 0 && (L.principalFirstAlways || L.t.prOr[s.prIdx[0]] === 1)) order.unshift(0);
  else order.push(0);
  s.procedureOrder = order;
  s.procedureOrderGen = s.g;
  return order;
}

function markRow(L: VersionLogic, s: CaseState, r: number, sev: number, bitMark: number, dxMarks: Uint8Array, prMarks: Uint8Array): void {
  const row = L.rows[r];
  const t = L.t;
  const setMdc = row.mdc === 0 ? s.pdxMdc : row.mdc;
  const bit = setMdc > 0 && setMdc < 31 ? 1 << setMdc : 0;
  const keys: Operand[] = [];
  collect(s, treeOf(L, r), bit, sev, keys);
  const pdx = s.pdx;
  const supp = L.suppLists[row.supp];
  // MULTST marks every code with a significant-trauma site; the other operands are supplied one code each.
  const live: boolean[] = [];
  let multst = false;
  for (const k of keys) {
    live.push(!k.multst);
    if (k.multst) multst = true;
  }
  if (multst) {
    for (let k = 1; k < s.nDx; k++) if (s.dxIdx[k] >= 0 && t.dxStBits[s.dxIdx[k]] !== 0) dxMarks[k] |= bitMark;
  }
  for (const k of clinicalOrder(L, s)) {
    const i = s.dxIdx[k];
    for (let x = 0; x < keys.length; x++) {
      if (!live[x]) continue;
      const op = keys[x];
      const bare = op.kind === 'BARE' || op.kind === 'MCC' || op.kind === 'CC';
      if (bare && pdx >= 0 && hasDxAttr(L, pdx, op.nameId)) continue;
      if (op.kind === 'MCC' || op.kind === 'CC') {
        // (the v39.1 logic also skips HAC codes in the final marking; later versions do not)
        const blocked = s.dxExcl[k] || s.dxDeath[k] || (supp !== 0 && (t.dxSuppBits[i] & supp) !== 0) || (bitMark === 2 && L.v391Dialect && s.dxHacMet[k]);
        if (!blocked && t.dxSev[i] === (op.kind === 'MCC' ? 2 : 1)) {
          dxMarks[k] |= bitMark;
          live[x] = false;
          break;
        }
        continue;
      }
      let id = -2; // -2: this operand is not a secondary diagnosis's to supply
      if (op.kind === 'SDX' || op.kind === 'BARE') id = op.nameId;
      else if (op.kind === 'ANY') id = pdx >= 0 && hasDxAttr(L, pdx, op.nameId) ? -2 : op.nameId; // the PDX satisfies it
      if (id !== -2 && hasDxAttr(L, i, id)) {
        dxMarks[k] |= bitMark;
        live[x] = false;
        break;
      }
    }
  }
  // Procedures
  if (s.nPr === 0) return;
  for (const op of keys) {
    const c = op.counted;
    if (!c) continue;
    for (let j = 0; j < s.nPr; j++) {
      const p = s.prIdx[j];
      if (p >= 0 && (t.prCnt[p] & c.mask) !== 0 && (!c.test || c.test(t.prCnt[p]))) prMarks[j] |= bitMark;
    }
  }
  const prKeys = keys.filter((k) => k.procedure);
  if (prKeys.length === 0) return;
  const usable = (j: number) => s.prIdx[j] >= 0 && (bit === 0 || (s.prSupp[j] & bit) === 0);
  const order = procedureOrder(L, s);
  for (const j of order) {
    if (usable(j) && prKeys.every((k) => hasPrAttr(L, s.prIdx[j], k.nameId))) {
      prMarks[j] |= bitMark;
      return;
    }
  }
  const markCluster = (id: number): boolean => {
    for (let x = 0; x < s.nClSat; x++) {
      const c = s.clSat[x];
      let has = false;
      for (let q = t.clusterAttrOff[c]; q < t.clusterAttrOff[c + 1]; q++) if (t.clusterAttrIds[q] === id) has = true;
      if (!has) continue;
      for (let j = 0; j < s.nPr; j++) {
        const p = s.prIdx[j];
        if (p < 0) continue;
        for (let q = t.prClusterOff[p]; q < t.prClusterOff[p + 1]; q++) if (t.prClusterIds[q] === c) prMarks[j] |= bitMark;
      }
      return true;
    }
    return false;
  };
  for (const op of prKeys) {
    let done = false;
    for (const j of order) {
      if (usable(j) && hasPrAttr(L, s.prIdx[j], op.nameId)) {
        prMarks[j] |= bitMark;
        done = true;
        break;
      }
    }
    if (!done) markCluster(op.nameId);
  }
}
