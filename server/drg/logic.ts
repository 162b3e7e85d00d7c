/**
 * One version's grouping logic, ready to run: the compiled tables plus what is built from them once when the version
 * loads – the code indexes, the DRG formula sets turned into JavaScript, the HAC formulas, titles and flag ids.
 * Immutable; every case reads it. The per-case scratch lives in `stages/state.ts`.
 *
 * Formula sets. The Definitions Manual's decision logic for an MDC is an ordered list of formula rows: the first
 * true row assigns the DRG (or reroutes, or ends in DRG 999). Each set is compiled to one function
 * `(P, S, B, U, g, s) → row index | -1` with the rows as an `if … return` chain, so a case costs one call per set
 * rather than one per row. A row's "MCC"/"CC" operand asks the case for its severity under the row's suppression
 * list (`s.sev(list)`, computed on first use and cached per pass). The detail path also needs every true row after
 * the assigning one (the candidate DRGs): a second function per set, compiled on first use.
 */
import { CodeIndex } from './codeindex';
import type { CompiledRow, CompiledTables } from './compile';
import { SYNTHETIC_FLAGS } from './compile';
import { compileFormula, formulaSource, parseFormula, type FormulaNode, type OperandResolver, type Predicate } from './formula';
import type { CaseState } from './stages/state';

export type FlagName = (typeof SYNTHETIC_FLAGS)[number];

/** First matching row of a formula set (index into `rows`), or -1. */
export type SetEvaluator = (P: Int32Array, S: Int32Array, B: Int32Array, U: Int32Array, g: number, s: CaseState) => number;
/** Every true row of a set from `from` on that assigns a DRG, written to `out`; returns how many. */
type SetCollector = (P: Int32Array, S: Int32Array, B: Int32Array, U: Int32Array, g: number, s: CaseState, from: number, out: number[]) => number;

const MAX_SETS = 100;

export class VersionLogic {
  readonly t: CompiledTables;
  readonly version: string;
  readonly fiscalYear: string;
  readonly fidelity: 'exact' | 'derived';
  /**
   * Whether per-code severity flags name row suppression MCC/CC_EXCLUDED_BY_DRG_LOGIC (the CMS grouper does so from
   * v41; for v40/v39 it reports plain MCC/CC). Reporting only.
   */
  readonly drgLogicFlags: boolean;
  /** Tables in the v39.1 dialect (return codes as `xpt grc N` rows). */
  readonly v391Dialect: boolean;
  /** Marking looks at the principal procedure first even when it is not an O.R. procedure (before v42). */
  readonly principalFirstAlways: boolean;
  /** Derived versions: some base rows are kept as ghosts (their DRG does not exist in this version). */
  readonly hasGhosts: boolean;
  /** Derived versions: what this version cannot reproduce, in words (null for exact versions). */
  readonly fidelityNote: string | null;

  readonly dx: CodeIndex;
  readonly pr: CodeIndex;
  readonly rows: CompiledRow[];
  readonly setStart = new Int32Array(MAX_SETS).fill(-1);
  readonly setEnd = new Int32Array(MAX_SETS).fill(-1);
  private readonly firstOf: Array<SetEvaluator | null> = new Array<SetEvaluator | null>(MAX_SETS).fill(null);
  private readonly allOf: Array<SetCollector | null> = new Array<SetCollector | null>(MAX_SETS).fill(null);
  readonly hacPreds = new Map<number, Predicate>();
  readonly suppLists: Int32Array;
  /** Per cluster: the bit mask of all its choices (a cluster is complete when every bit is seen). */
  readonly clusterFull: Uint32Array;
  /** Attribute id of every name; the grouper's own flags are in `F`. */
  readonly A = new Map<string, number>();
  /** Ids of the grouper's own flags (-1 when the version's formulas never test them). */
  readonly F: Record<FlagName, number>;
  private readonly drgTitle: string[] = new Array<string>(1000).fill('');
  private readonly mdcTitle = new Map<number, string>();
  private readonly resolver: OperandResolver;

  constructor(tables: CompiledTables) {
    this.t = tables;
    this.version = tables.meta.version;
    this.fiscalYear = tables.meta.fiscalYear;
    this.fidelity = tables.meta.fidelity;
    const major = Number(/^v(\d+)/.exec(this.version)?.[1] ?? 0);
    this.drgLogicFlags = major >= 41;
    this.principalFirstAlways = (major || 99) < 42;
    this.v391Dialect = tables.rows.some((r) => /^xpt\s+grc/.test(r.formula));
    this.hasGhosts = tables.rows.some((r) => r.ghost);
    this.fidelityNote = tables.meta.fidelityNote ?? null;
    this.dx = new CodeIndex(tables.dxTable, tables.dxCodes);
    this.pr = new CodeIndex(tables.prTable, tables.prCodes);
    tables.attrNames.forEach((n, i) => this.A.set(n, i));
    const f = {} as Record<FlagName, number>;
    for (const n of SYNTHETIC_FLAGS) f[n] = this.A.get(n) ?? -1;
    this.F = f;
    const synthetic = new Set<string>(SYNTHETIC_FLAGS);
    this.resolver = { id: (n: string) => this.A.get(n) ?? -1, isSynthetic: (n: string) => synthetic.has(n) };
    this.rows = tables.rows;
    this.rows.forEach((r, i) => {
      if (r.mdc >= 0 && r.mdc < MAX_SETS) {
        if (this.setStart[r.mdc] < 0) this.setStart[r.mdc] = i;
        this.setEnd[r.mdc] = i + 1;
      }
    });
    for (let m = 0; m < MAX_SETS; m++) if (this.setStart[m] >= 0) this.firstOf[m] = this.compileFirst(m);
    for (const h of tables.hacFormulas) this.hacPreds.set(h.hac, compileFormula(parseFormula(h.formula), this.resolver, -1));
    for (const d of tables.drgs) if (d.drg >= 0 && d.drg < 1000) this.drgTitle[d.drg] = d.title;
    for (const m of tables.mdcs) this.mdcTitle.set(m.mdc, m.title);
    this.suppLists = Int32Array.from(tables.suppLists);
    const nCl = tables.clusterNames.length;
    this.clusterFull = new Uint32Array(nCl);
    for (let c = 0; c < nCl; c++) {
      const k = tables.clusterChoiceOff[c + 1] - tables.clusterChoiceOff[c];
      this.clusterFull[c] = k >= 32 ? 0xffffffff : ((1 << k) - 1) >>> 0;
    }
  }

  private rowSource(r: number): string {
    const row = this.rows[r];
    return formulaSource(parseFormula(row.formula), this.resolver, row.mdc, (level) => `(s.sev(${row.supp})===${level})`);
  }

  /** `if (row) return index;` for every live row of the set, in rank order; ghost rows only leave a note. */
  private compileFirst(mdc: number): SetEvaluator {
    const lines: string[] = [];
    for (let r = this.setStart[mdc]; r < this.setEnd[mdc]; r++) {
      const row = this.rows[r];
      if (row.inert) continue;
      if (row.ghost) lines.push(`if(s.ghostRow<0&&${this.rowSource(r)})s.ghostRow=${r};`);
      else lines.push(`if(${this.rowSource(r)})return ${r};`);
    }
    lines.push('return -1;');
    return new Function('P', 'S', 'B', 'U', 'g', 's', lines.join('\n')) as SetEvaluator;
  }

  /** The first true row of a formula set for the case, or -1 (no such set, or nothing true). */
  firstRow(mdc: number, s: CaseState): number {
    const f = mdc >= 0 && mdc < MAX_SETS ? this.firstOf[mdc] : null;
    return f ? f(s.P, s.S, s.B, s.U, s.g, s) : -1;
  }

  /** Every true DRG-assigning row of the set of row `from`, from that row on (detail path). */
  rowsFrom(from: number, s: CaseState): number[] {
    const mdc = this.rows[from].mdc;
    let f = this.allOf[mdc];
    if (!f) this.allOf[mdc] = f = this.compileAll(mdc);
    const out: number[] = [];
    f(s.P, s.S, s.B, s.U, s.g, s, from, out);
    return out;
  }

  /** `if (from <= index && row) out.push(index)` for every DRG-assigning row of the set. */
  private compileAll(mdc: number): SetCollector {
    const lines = ['let n=0;'];
    for (let r = this.setStart[mdc]; r < this.setEnd[mdc]; r++) {
      const row = this.rows[r];
      if (row.inert || row.ghost || row.drg === 0) continue;
      lines.push(`if(from<=${r}&&${this.rowSource(r)})out[n++]=${r};`);
    }
    lines.push('return n;');
    return new Function('P', 'S', 'B', 'U', 'g', 's', 'from', 'out', lines.join('\n')) as SetCollector;
  }

  private readonly asts = new Map<number, FormulaNode>();

  /** Parsed formula of a row (detail path: marking reads which operands made it true). */
  astOf(row: number): FormulaNode {
    let a = this.asts.get(row);
    if (!a) {
      a = parseFormula(this.rows[row].formula);
      this.asts.set(row, a);
    }
    return a;
  }

  drgTitleOf(drg: number): string {
    return (drg >= 0 && drg < 1000 ? this.drgTitle[drg] : undefined) ?? '';
  }
  mdcTitleOf(mdc: number): string {
    return this.mdcTitle.get(mdc) ?? '';
  }
}
