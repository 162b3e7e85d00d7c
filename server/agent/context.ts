/**
 * Assertion of a mention, in the manner of NegEx / ConText: is the condition present, negated ("no evidence of MI",
 * "ACS ruled out"), uncertain ("? PE", "likely", "rule out"), historical ("h/o CVA 2019", "old MI", "previous"),
 * a family member's, or hypothetical/planned ("plan for laparotomy if…", "DVT prophylaxis", "in 6 weeks")?
 *
 * Triggers have a direction and a scope: pre-triggers look forward to the end of their clause (at most
 * PRE_WINDOW words), post-triggers look back (at most POST_WINDOW words). Clauses end at sentence ends and at
 * conjunctions that start a new proposition ("but", "however", "secondary to", "which"…). Pseudo-triggers
 * ("gram negative", "no change", "not only") are removed first.
 */
import type { SectionKind } from './text';

export type Assertion = 'present' | 'negated' | 'uncertain' | 'history' | 'family' | 'hypothetical' | 'finding' | 'symptom_context' | 'ignored';

const PRE_WINDOW = 8;
const POST_WINDOW = 6;

const NEG_PRE =
  /\b(?:no|not|nil|never|denie[sd]|denying|deny|without|negative for|no evidence of|no signs? of|no features? of|no history of|no h\/o|no hx of|free of|absence of|absent|ruled out|r\/o'd|excluded|unlikely to be|not in keeping with|not suggestive of|neither|nor|outside(?: the)?|not a candidate for|not eligible for|contraindicat(?:ed|ion) (?:to|for)|declined|refused|tiada|tidak)\b/g;
const NEG_POST =
  /\b(?:ruled out|was ruled out|were ruled out|is ruled out|has been ruled out|excluded|was excluded|is excluded|were excluded|negative|non-?reactive|not seen|not detected|not found|not present|not required|not needed|not done|not performed|absent|unlikely|is unlikely|not given|not indicated)\b/g;
const UNC_PRE =
  /(?:\?\s*(?=[a-z])|\b(?:query|possible|possibly|probable|probably|likely|suspected|suspect|suspicion of|suspicious (?:for|of)|presumed|presumptive|rule out|r\/o|rule-out|to rule out|to exclude|cannot (?:be )?excluded?|can't exclude|differentials?|differential diagnos[ie]s|vs\.?|versus|impression of|consider(?:ed)?)\b)/g;
const UNC_POST = /\b(?:cannot be excluded|can't be excluded|not excluded|is likely|is possible|to be ruled out|to be excluded|\?)(?:\s|$)/g;
const HIST_PRE =
  /\b(?:h\/o|hx of|history of|past history of|previous(?:ly)?|prior|old|past history|s\/p|status post|in the past|had (?:a|an)|known history of)\b/g;
const HIST_POST =
  /(?:\b(?:in|since|on)\s+(?:19|20)\d\d\b|(?<![\d/.-])\((?:19|20)\d\d\)|(?<![\d/.-])\b(?:19|20)\d\d\b(?![\d/-]|\.\d)|\b\d+\s*(?:years?|yrs?|months?|weeks?|days?)\s+ago\b|\bago\b|\bpreviously\b|\bin the past\b)/g;
const FAMILY_PRE =
  /\b(?:family history(?: of)?|fhx|fh of|mother|father|brother|sister|siblings?|parents?|grand(?:mother|father|parents?)|aunt|uncle|cousin|maternal|paternal)\b/g;
const HYPO_PRE =
  /\b(?:if|in case of|should|to be|plan(?:ned)? (?:for|to)|plan was for|planned|for elective|for interval|will (?:need|require|undergo|be|have)|to consider|scheduled for|awaiting|await|prophyla(?:xis|ctic)|risk of|at risk (?:of|for)|to prevent|prevention of|screen(?:ing)? for|watch(?:ing)? for|monitor(?:ing)? for|to monitor|advised|advise|referral for|refer(?:red)? for|for (?:mdt|discussion|review)|tca|to follow up|follow[- ]up|for outpatient|outpatient|to return|return if|to look for|look out for)\b/g;
const HYPO_POST =
  /\b(?:prophyla(?:xis|ctic)|planned|is planned|to be arranged|to be done|to be scheduled|in \d+\s*(?:days?|weeks?|months?|\/52|\/12)|at follow[- ]?up|later|if needed|if required|when indicated|prn)\b/g;
const SYMPTOM_POST = /^\s*(?:symptoms?|sx|like symptoms?|-like)\b/;
/** Triggers that look like negation or history but are not. */
const PSEUDO =
  /\b(?:gram[- ]negative|gram[- ]positive|no change|no significant change|no interval change|no increase|no further|not only|not necessarily|without difficulty|no longer|not certain if|not cause|not drain|non-?st|non[- ]?st[- ]elevation|nil by mouth|non[- ]?smoker|non[- ]?compliant|non[- ]?productive|no\.\s*\d|esbl negative|old age|years? old|year-old|yo\b|y\/o|previous(?:ly)? well|had been taking|not on any|non[- ]?insulin|non[- ]?cardiac|non[- ]?exertional|non[- ]?infective)\b/g;
/** Words that end a trigger's scope. */
const TERMINATOR =
  /(?:[.;:!(]|\s[-–—]\s|\b(?:but|however|although|though|except|apart from|aside from|secondary to|due to|caused by|which|who|whereas|presented|presenting|admitted|treated|started|given|found|developed|complicated by|and then|then|while|whilst|likely|with evidence of)\b)/g;

interface Hit {
  start: number;
  end: number;
}

function hits(re: RegExp, s: string): Hit[] {
  const out: Hit[] = [];
  re.lastIndex = 0;
  for (const m of s.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

function overlaps(a: Hit, list: Hit[]): boolean {
  return list.some((b) => a.start < b.end && b.start < a.end);
}

function wordCount(s: string): number {
  return s.split(/\s+/).filter((w) => /[a-z0-9]/i.test(w)).length;
}

/** True when a pre-trigger at `t` reaches the mention at [ms, me) in the sentence `s` (lower case). */
function preReaches(s: string, t: Hit, ms: number, window = PRE_WINDOW): boolean {
  if (t.end > ms) return false;
  const between = s.slice(t.end, ms);
  if (wordCount(between) > window) return false;
  TERMINATOR.lastIndex = 0;
  return !TERMINATOR.test(between);
}

function postReaches(s: string, t: Hit, me: number, window = POST_WINDOW, blockers: Hit[] = []): boolean {
  if (t.start < me) return false;
  // a post-trigger belongs to the nearest concept before it ("chest pain - ACS ruled out" rules out ACS only)
  if (blockers.some((b) => b.start >= me && b.end <= t.start)) return false;
  const between = s.slice(me, t.start);
  if (wordCount(between) > window) return false;
  // post-triggers may look back over a dash ("Troponin normal - ACS ruled out" reads the other way round)
  const stop = /(?:[.;!]|\b(?:but|however|although|except|apart from|which|whereas|and then|then|while)\b)/;
  return !stop.test(between);
}

export interface AssertionInput {
  /** The sentence (original case). */
  sentence: string;
  /** Mention offsets relative to the sentence. */
  start: number;
  end: number;
  section: SectionKind;
  /** Other concept mentions in the sentence (relative offsets): a post-trigger does not reach past them. */
  others?: Array<{ start: number; end: number }>;
}

export interface AssertionResult {
  assertion: Assertion;
  /** The trigger text that decided it (for the explanation), if any. */
  cue: string | null;
  uncertain: boolean;
  history: boolean;
}

const SECTION_ASSERTION: Partial<Record<SectionKind, Assertion>> = {
  family: 'family',
  plan: 'hypothetical',
  medications: 'ignored',
  allergies: 'ignored',
  header: 'ignored',
  investigation: 'finding',
  examination: 'finding',
};

/**
 * The assertion of one mention. Sections decide first (family history, plan, medications…), then negation, family,
 * hypothetical, uncertainty and history cues in the sentence. History is reported as a flag: whether it matters
 * depends on the concept (a chronic disease with "h/o" is still current; an old MI is history).
 */
export function assertMention(input: AssertionInput): AssertionResult {
  const s = input.sentence.toLowerCase();
  const { start: ms, end: me } = input;
  const pseudo = hits(PSEUDO, s);
  const real = (re: RegExp) => hits(re, s).filter((h) => !overlaps(h, pseudo) && !(h.start < me && ms < h.end));
  const cueText = (h: Hit) => input.sentence.slice(h.start, h.end).trim();

  const fromSection = SECTION_ASSERTION[input.section];
  if (fromSection === 'ignored' || fromSection === 'family') return { assertion: fromSection, cue: null, uncertain: false, history: false };

  // "URTI symptoms", "ACS-like"
  if (SYMPTOM_POST.test(s.slice(me))) return { assertion: 'symptom_context', cue: 'symptoms', uncertain: false, history: false };

  for (const t of real(NEG_PRE)) if (preReaches(s, t, ms)) return { assertion: 'negated', cue: cueText(t), uncertain: false, history: false };
  const others = input.others ?? [];
  for (const t of real(NEG_POST))
    if (postReaches(s, t, me, POST_WINDOW, others)) return { assertion: 'negated', cue: cueText(t), uncertain: false, history: false };
  for (const t of real(FAMILY_PRE)) if (preReaches(s, t, ms, 6)) return { assertion: 'family', cue: cueText(t), uncertain: false, history: false };
  if (fromSection) return { assertion: fromSection, cue: null, uncertain: false, history: false };
  for (const t of real(HYPO_PRE)) if (preReaches(s, t, ms)) return { assertion: 'hypothetical', cue: cueText(t), uncertain: false, history: false };
  for (const t of real(HYPO_POST))
    if (postReaches(s, t, me, POST_WINDOW, others)) return { assertion: 'hypothetical', cue: cueText(t), uncertain: false, history: false };

  let uncertain = false;
  let cue: string | null = null;
  for (const t of real(UNC_PRE)) {
    if (preReaches(s, t, ms, 5)) {
      uncertain = true;
      cue = cueText(t);
      break;
    }
  }
  if (!uncertain) {
    for (const t of real(UNC_POST)) {
      if (postReaches(s, t, me, 3, others)) {
        uncertain = true;
        cue = cueText(t);
        break;
      }
    }
  }
  let history = input.section === 'pmh' || input.section === 'psh';
  if (!history) {
    for (const t of real(HIST_PRE)) {
      if (preReaches(s, t, ms, 4)) {
        history = true;
        cue ??= cueText(t);
        break;
      }
    }
  }
  if (!history) {
    for (const t of real(HIST_POST)) {
      if (postReaches(s, t, me, 4)) {
        history = true;
        cue ??= cueText(t);
        break;
      }
    }
  }
  if (input.section === 'differential') return { assertion: 'uncertain', cue: cue ?? 'differential', uncertain: true, history };
  return { assertion: uncertain ? 'uncertain' : 'present', cue, uncertain, history };
}
