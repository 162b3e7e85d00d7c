/**
 * Placeholders `[TYPE_n]` and the placeholder -> original mapping.
 *
 * - Numbering: n counts per type from 1 in order of first appearance.
 * - Equality: the same value gets the same placeholder after normalisation by type (IC digits, phone E.164, e-mail
 *   lower case, card/account digits, MRN/passport upper-case alphanumerics, person names case/space/connector-folded).
 * - prior_mapping: known values keep their placeholder; new values get the next free index (max known index + 1,
 *   also above any placeholder already present in the text). Takes precedence over conversation_key.
 * - conversation_key (deprecated): the index is derived from HMAC-SHA256(secret, key | type | normalised value), so
 *   the same value maps to the same placeholder in every call with the same key, without shared state. Collisions
 *   inside one call are detected and resolved by probing to the next free index; collisions ACROSS calls cannot be
 *   detected (two different values seen in different calls may get the same placeholder). Prefer prior_mapping.
 * - Reserved placeholders (our form, already present in the input: client pre-redaction, or an earlier turn's answer
 *   sent back): a new value never takes a reserved index — except with conversation_key, where the index is derived
 *   from the value: when a value's derived placeholder is reserved and not yet given to another value in this session,
 *   the value takes it (it is that value's placeholder from an earlier turn of the same conversation), so one value
 *   never gets two placeholders within a request. A reserved placeholder that no value took stays the client's own:
 *   it has no original, and rehydration leaves it as written without counting it as unresolved.
 */
import crypto from 'node:crypto';
import { RedactionFailedError } from './errors';
import { validatePhone } from './recognizers/phone';
import { isEntityType, type EntityType } from './types';

export const PLACEHOLDER_RE = /\[(PERSON|MY_IC|MRN|PASSPORT|PHONE|EMAIL|CARD_NUMBER|BANK_ACCOUNT)_(\d{1,9})\]/g;

export function formatPlaceholder(type: EntityType, n: number): string {
  return `[${type}_${n}]`;
}

export function parsePlaceholder(p: string): { type: EntityType; n: number } | null {
  const m = /^\[([A-Z_]+)_(\d{1,9})\]$/.exec(p);
  if (!m || !isEntityType(m[1])) return null;
  return { type: m[1], n: Number(m[2]) };
}

const CONNECTOR_CANON: Record<string, string> = {
  'b.': 'bin',
  b: 'bin',
  bin: 'bin',
  'bt.': 'binti',
  bt: 'binti',
  bte: 'binti',
  binte: 'binti',
  binti: 'binti',
  's/o': 'a/l',
  'a/l': 'a/l',
  'd/o': 'a/p',
  'a/p': 'a/p',
  'ak.': 'anak',
  ak: 'anak',
  anak: 'anak',
  'mohd.': 'mohd',
  'md.': 'mohd',
  md: 'mohd',
  'muhd.': 'muhammad',
  muhd: 'muhammad',
  'hj.': 'haji',
  hj: 'haji',
  'hjh.': 'hajah',
  hjh: 'hajah',
};

/** Normalised comparison key of a value of the given type. */
export function normalizeValue(type: EntityType, value: string): string {
  const v = (/[^\x00-\x7f]/.test(value) ? value.normalize('NFKC') : value).trim();
  switch (type) {
    case 'PERSON': {
      const words = v
        .toLowerCase()
        .replace(/[\u2019`]/g, "'")
        .split(/\s+/)
        .filter(Boolean)
        .map((w) => CONNECTOR_CANON[w] ?? w.replace(/\.$/, ''));
      return words.join(' ');
    }
    case 'PHONE': {
      const p = validatePhone(v);
      return p ? p.e164 : v.replace(/[^\d+]/g, '');
    }
    case 'EMAIL':
      return v.toLowerCase();
    case 'MY_IC':
      return v.toUpperCase().replace(/[^0-9A-Z]/g, '');
    case 'CARD_NUMBER':
    case 'BANK_ACCOUNT':
      return v.replace(/\D/g, '');
    case 'MRN':
    case 'PASSPORT':
      return v.toUpperCase().replace(/[^0-9A-Z/]/g, '');
  }
}

export interface AllocatorOptions {
  priorMapping?: Record<string, string>;
  conversationKey?: string;
  /** Secret for the conversation_key HMAC. Required when conversationKey is used (no env is read here). */
  hmacSecret?: string;
}

const HMAC_RANGE = 999_999;

/** Keeps the mapping of one redaction session (one request, possibly many texts). */
export class PlaceholderAllocator {
  /** placeholder -> original (first original seen for that placeholder) */
  private readonly mapping = new Map<string, string>();
  private readonly byKey = new Map<string, string>();
  private readonly used = new Set<string>();
  /** Placeholders found in the input (client-owned unless a value claims one in hmac mode). */
  private readonly reservedSet = new Set<string>();
  private readonly nextIndex = new Map<EntityType, number>();
  private readonly mode: 'sequential' | 'hmac';
  private readonly conversationKey?: string;
  private readonly secret?: string;

  constructor(opts: AllocatorOptions = {}) {
    if (opts.priorMapping !== undefined) {
      this.mode = 'sequential';
      for (const [ph, original] of Object.entries(opts.priorMapping)) {
        const p = parsePlaceholder(ph);
        if (!p || typeof original !== 'string') continue;
        this.mapping.set(ph, original);
        this.used.add(ph);
        const key = `${p.type}\u0000${normalizeValue(p.type, original)}`;
        if (!this.byKey.has(key)) this.byKey.set(key, ph);
        this.bump(p.type, p.n);
      }
    } else if (opts.conversationKey !== undefined && opts.conversationKey !== '') {
      if (!opts.hmacSecret) {
        throw new RedactionFailedError('configuration', 'conversation_key requires an HMAC secret (REDACTION_HMAC_SECRET)');
      }
      this.mode = 'hmac';
      this.conversationKey = opts.conversationKey;
      this.secret = opts.hmacSecret;
    } else {
      this.mode = 'sequential';
    }
  }

  private bump(type: EntityType, n: number): void {
    const cur = this.nextIndex.get(type) ?? 1;
    if (n + 1 > cur) this.nextIndex.set(type, n + 1);
  }

  /** A placeholder already present in the input text (client pre-redaction): never reuse its index for a new value. */
  reserve(placeholder: string): void {
    const p = parsePlaceholder(placeholder);
    if (!p) return;
    const canonical = formatPlaceholder(p.type, p.n); // `[PERSON_01]` reserves index 1
    if (this.used.has(canonical)) return;
    this.used.add(canonical);
    this.reservedSet.add(canonical);
    this.bump(p.type, p.n);
  }

  /** Reserved placeholders that no value of this session took: the client's own, with no original. */
  reserved(): Set<string> {
    const out = new Set<string>();
    for (const ph of this.reservedSet) if (!this.mapping.has(ph)) out.add(ph);
    return out;
  }

  /** Placeholder for a value; the same normalised value always gets the same placeholder in this session. */
  assign(type: EntityType, original: string, normalized?: string): string {
    const norm = normalized ?? normalizeValue(type, original);
    const key = `${type}\u0000${norm}`;
    const known = this.byKey.get(key);
    if (known) return known;
    let ph: string;
    if (this.mode === 'hmac') {
      const h = crypto.createHmac('sha256', this.secret!).update(`${this.conversationKey}\u0000${type}\u0000${norm}`).digest();
      let n = (h.readUIntBE(0, 6) % HMAC_RANGE) + 1;
      ph = formatPlaceholder(type, n);
      // the value's own placeholder, already in the input (an earlier turn): take it rather than a second one
      const claimable = this.reservedSet.has(ph) && !this.mapping.has(ph);
      while (!claimable && this.used.has(ph)) {
        n = (n % HMAC_RANGE) + 1; // in-call collision: probe
        ph = formatPlaceholder(type, n);
      }
    } else {
      let n = this.nextIndex.get(type) ?? 1;
      ph = formatPlaceholder(type, n);
      while (this.used.has(ph)) ph = formatPlaceholder(type, ++n);
      this.nextIndex.set(type, n + 1);
    }
    this.used.add(ph);
    this.byKey.set(key, ph);
    this.mapping.set(ph, original);
    return ph;
  }

  /** Original value of a placeholder, if known. */
  lookup(placeholder: string): string | undefined {
    return this.mapping.get(placeholder);
  }

  has(placeholder: string): boolean {
    return this.mapping.has(placeholder);
  }

  toObject(): Record<string, string> {
    return Object.fromEntries(this.mapping);
  }
}
