/**
 * The grouper's formula mini-language (see msdrg/tables/README.md):
 *
 *   expr   := term ('|' term)*
 *   term   := factor ('&' factor)*
 *   factor := '~' factor | '(' expr ')' | operand
 *   operand:= [PREFIX ':'] name          PREFIX ∈ PDX, SDX, ANY, ONLY (v39.1 also writes PT:)
 *
 * `parseFormula` builds a small AST; `compileFormula` turns it into a JavaScript predicate over the
 * claim's attribute mask (a closure created once per table row, evaluated once per case).
 */

export type Prefix = '' | 'PDX' | 'SDX' | 'ANY' | 'ONLY';

export type FormulaNode =
  | { kind: 'or'; items: FormulaNode[] }
  | { kind: 'and'; items: FormulaNode[] }
  | { kind: 'not'; item: FormulaNode }
  | { kind: 'operand'; prefix: Prefix; name: string }
  | { kind: 'const'; value: boolean };

export class FormulaSyntaxError extends Error {
  constructor(
    message: string,
    readonly formula: string,
  ) {
    super(`${message} in formula "${formula}"`);
    this.name = 'FormulaSyntaxError';
  }
}

/** v39.1 spells a few control tokens differently; map them to the v40+ spelling. */
const DIALECT: Record<string, string> = {
  'PT:invalid_dstat': 'INVALID_DSTAT',
  'PT:invalid_pdx': 'INVALID_PDX',
  'PT:pdx_ecode': 'PDX_ECODE',
  'PT:invalid_sex': 'INVALID_SEX',
};

type Tok = { t: '(' | ')' | '&' | '|' | '~' } | { t: 'atom'; v: string };

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
    } else if (c === '(' || c === ')' || c === '&' || c === '|' || c === '~') {
      out.push({ t: c });
      i++;
    } else {
      let j = i;
      while (j < src.length && !' \t\r\n()&|~'.includes(src[j])) j++;
      out.push({ t: 'atom', v: src.slice(i, j) });
      i = j;
    }
  }
  return out;
}

function operand(text: string): FormulaNode {
  const mapped = DIALECT[text] ?? text;
  const k = mapped.indexOf(':');
  if (k < 0) return { kind: 'operand', prefix: '', name: mapped };
  const p = mapped.slice(0, k);
  const name = mapped.slice(k + 1);
  if (p === 'PDX' || p === 'SDX' || p === 'ANY' || p === 'ONLY') return { kind: 'operand', prefix: p, name };
  // Unknown prefix: the Java grouper would never put such a key in the mask.
  return { kind: 'const', value: false };
}

/**
 * Parse one formula. `xpt grc N` (the v39.1 return-code marker rows) is not a boolean expression;
 * callers detect it with `returnCodeMarker` before parsing.
 */
export function parseFormula(src: string): FormulaNode {
  const toks = tokenize(src);
  if (toks.length === 0) throw new FormulaSyntaxError('empty expression', src);
  let pos = 0;
  const peek = () => toks[pos];
  const expr = (): FormulaNode => {
    const items = [term()];
    while (pos < toks.length && peek().t === '|') {
      pos++;
      items.push(term());
    }
    return items.length === 1 ? items[0] : { kind: 'or', items };
  };
  const term = (): FormulaNode => {
    const items = [factor()];
    while (pos < toks.length && peek().t === '&') {
      pos++;
      items.push(factor());
    }
    return items.length === 1 ? items[0] : { kind: 'and', items };
  };
  const factor = (): FormulaNode => {
    const tk = toks[pos++];
    if (!tk) throw new FormulaSyntaxError('unexpected end', src);
    if (tk.t === '~') return { kind: 'not', item: factor() };
    if (tk.t === '(') {
      const e = expr();
      if (pos >= toks.length || toks[pos].t !== ')') throw new FormulaSyntaxError('missing )', src);
      pos++;
      return e;
    }
    if (tk.t === 'atom') return operand(tk.v);
    throw new FormulaSyntaxError(`unexpected "${tk.t}"`, src);
  };
  const node = expr();
  if (pos !== toks.length) throw new FormulaSyntaxError(`trailing tokens at ${pos}`, src);
  return node;
}

/** `xpt grc 7` → 7 (v39.1 return-code marker row), else null. */
export function returnCodeMarker(src: string): number | null {
  const m = src.trim().match(/^xpt\s+grc\s+(\d+)$/);
  return m ? Number(m[1]) : null;
}

/** Every operand of a formula as `PREFIX:name` (or bare `name`). */
export function formulaOperands(node: FormulaNode, out: Set<string> = new Set()): Set<string> {
  switch (node.kind) {
    case 'or':
    case 'and':
      for (const x of node.items) formulaOperands(x, out);
      break;
    case 'not':
      formulaOperands(node.item, out);
      break;
    case 'operand':
      out.add(node.prefix ? `${node.prefix}:${node.name}` : node.name);
      break;
    case 'const':
      break;
  }
  return out;
}

/** Evaluate an AST directly against a predicate on operands (used by tests and tooling, not the hot path). */
export function evaluateFormula(node: FormulaNode, has: (prefix: Prefix, name: string) => boolean): boolean {
  switch (node.kind) {
    case 'or':
      return node.items.some((x) => evaluateFormula(x, has));
    case 'and':
      return node.items.every((x) => evaluateFormula(x, has));
    case 'not':
      return !evaluateFormula(node.item, has);
    case 'operand':
      return has(node.prefix, node.name);
    case 'const':
      return node.value;
  }
}

/**
 * The mask a compiled predicate reads. Attribute ids index the arrays; an entry is "set" when it
 * equals the current generation `g` (so nothing has to be cleared between cases).
 * - `P[a]`: the principal diagnosis has attribute a; `S[a]`: some secondary diagnosis has it.
 * - `B[a]`: procedure attribute or synthetic flag; `U[a]`: MDCs (bit n = MDC n) in which every
 *   procedure that contributed `a` is suppressed by a cluster.
 * - `v`: severity for this row (0 none, 1 CC, 2 MCC).
 */
export type Predicate = (P: Int32Array, S: Int32Array, B: Int32Array, U: Int32Array, g: number, v: number) => boolean;

export interface OperandResolver {
  /** Attribute id for a name, or -1 when no code or flag can ever carry it. */
  id(name: string): number;
  /** Names that are flags computed by the grouper (never cluster-suppressed). */
  isSynthetic(name: string): boolean;
}

/**
 * JavaScript source of a formula over the mask (`P`, `S`, `B`, `U`, `g` in scope). `mdc` is the formula set the row
 * belongs to: a bare procedure attribute counts only if at least one procedure carrying it is not cluster-suppressed
 * in that MDC. `severity(2)` / `severity(1)` give the source of "the row's highest remaining level is MCC / CC".
 */
export function formulaSource(node: FormulaNode, r: OperandResolver, mdc: number, severity: (level: 1 | 2) => string): string {
  const bit = mdc >= 0 && mdc < 31 ? 1 << mdc : 0;
  const emit = (n: FormulaNode): string => {
    switch (n.kind) {
      case 'or':
        return '(' + n.items.map(emit).join('||') + ')';
      case 'and':
        return '(' + n.items.map(emit).join('&&') + ')';
      case 'not':
        return '!' + emit(n.item);
      case 'const':
        return n.value ? 'true' : 'false';
      case 'operand': {
        if (n.prefix === '' && (n.name === 'MCC' || n.name === 'CC')) return severity(n.name === 'MCC' ? 2 : 1);
        if (n.prefix === 'ONLY') {
          const id = r.id('ONLY:' + n.name);
          return id < 0 ? 'false' : `(B[${id}]===g)`;
        }
        const id = r.id(n.name);
        if (id < 0) return 'false';
        switch (n.prefix) {
          case 'PDX':
            return `(P[${id}]===g)`;
          case 'SDX':
            return `(S[${id}]===g)`;
          case 'ANY':
            return `(P[${id}]===g||S[${id}]===g)`;
          default:
            if (r.isSynthetic(n.name) || bit === 0) return `(B[${id}]===g)`;
            return `(B[${id}]===g&&(U[${id}]&${bit})===0)`;
        }
      }
    }
  };
  return emit(node);
}

/**
 * Compile an AST to a predicate. `mdc` is the formula set the row belongs to (see formulaSource); `v` is the row's
 * severity (0 none, 1 CC, 2 MCC).
 */
export function compileFormula(node: FormulaNode, r: OperandResolver, mdc: number): Predicate {
  const body = formulaSource(node, r, mdc, (level) => `(v===${level})`);
  return new Function('P', 'S', 'B', 'U', 'g', 'v', `return ${body};`) as Predicate;
}
