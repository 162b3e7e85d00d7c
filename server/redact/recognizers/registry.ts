/**
 * Registry of recognizers. Structured recognizers run first; PERSON runs last, because it must not claim text that
 * a validated identifier (an e-mail, an IC) already owns.
 */
import type { Recognizer } from './base';
import { bankAccountRecognizer } from './bank-account';
import { cardRecognizer } from './card';
import { emailRecognizer } from './email';
import { hl7NameRecognizer } from './hl7';
import { mrnRecognizer } from './mrn';
import { myIcRecognizer } from './my-ic';
import { passportRecognizer } from './passport';
import { personRecognizer } from './person';
import { phoneRecognizer } from './phone';
import { unexplainedIdRecognizer } from './unexplained-id';

export class RecognizerRegistry {
  private readonly structured: Recognizer[] = [];
  private readonly fallbacks: Recognizer[] = [];
  private readonly names: Recognizer[] = [];

  constructor(recognizers: readonly Recognizer[] = DEFAULT_RECOGNIZERS) {
    for (const r of recognizers) this.add(r);
  }

  add(r: Recognizer): this {
    if (this.get(r.name)) throw new Error(`recognizer already registered: ${r.name}`);
    (r.fallback ? this.fallbacks : r.entity === 'PERSON' ? this.names : this.structured).push(r);
    return this;
  }

  get(name: string): Recognizer | undefined {
    return this.all().find((r) => r.name === name);
  }

  /** Recognizers of identifiers (run first). */
  structuredRecognizers(): readonly Recognizer[] {
    return this.structured;
  }

  /** Fallback recognizers (the default-deny identifier sweep): after the typed identifiers, before names. */
  fallbackRecognizers(): readonly Recognizer[] {
    return this.fallbacks;
  }

  /** Recognizers of names (run after identifiers are resolved). */
  nameRecognizers(): readonly Recognizer[] {
    return this.names;
  }

  all(): readonly Recognizer[] {
    return [...this.structured, ...this.fallbacks, ...this.names];
  }
}

export const DEFAULT_RECOGNIZERS: readonly Recognizer[] = [
  emailRecognizer,
  myIcRecognizer,
  cardRecognizer,
  bankAccountRecognizer,
  phoneRecognizer,
  passportRecognizer,
  mrnRecognizer,
  unexplainedIdRecognizer,
  personRecognizer,
  hl7NameRecognizer,
];

let defaultRegistry: RecognizerRegistry | undefined;
export function getDefaultRegistry(): RecognizerRegistry {
  if (!defaultRegistry) defaultRegistry = new RecognizerRegistry();
  return defaultRegistry;
}
