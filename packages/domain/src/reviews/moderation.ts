/**
 * The automatic moderation flags of product reviews (issue 30): what stores must not publish, as a
 * table of rules. Each rule has a stable id (stored with the flag), a plain name (shown to staff),
 * and patterns; a flag names the rule it matched and the words that matched. Flags never publish or
 * reject anything by themselves: every review waits for staff, and the flags tell them where to look.
 *
 * How the patterns avoid false positives (the tests in ./moderation.test.ts hold them to it):
 *  - every word is matched whole (`\b…\b`), with the inflections meant listed, so "cure" does not
 *    fire inside "secure" or "curious", "heal" not inside "health", "ass" not inside "glass";
 *  - medical words fire only with a claim around them ("treats my anxiety", "cured my insomnia"),
 *    not when a shopper says "I treated myself" or "calm and relaxed";
 *  - dosing needs an amount with a unit or an instruction ("take 10 mg", "start with half a gummy"),
 *    so "a 3.5 g jar" or "5 stars" is not advice;
 *  - an e-mail is contact details, not also a link; a price or a weight is not a phone number.
 * Add a rule by adding a row; add a case to the test table with it.
 */

export interface ModerationRule {
  id: ModerationRuleId;
  /** Shown to staff beside the flag. */
  name: string;
  patterns: readonly RegExp[];
}

export type ModerationRuleId = 'medical_claim' | 'dosing_advice' | 'contact_details' | 'link' | 'profanity';

export interface ModerationFlag {
  rule: ModerationRuleId;
  name: string;
  /** The words that matched, as written, each once. */
  matches: string[];
}

const CONDITIONS =
  '(?:anxiety|depression|insomnia|ptsd|pain|chronic pain|cancer|tumou?rs?|nausea|migraines?|headaches?|seizures?|epilepsy|arthritis|adhd|glaucoma|crohn\'?s|ms|multiple sclerosis|diabetes|inflammation|covid|addiction|panic attacks?)';
const MY = '(?:my\\s+|the\\s+|your\\s+|his\\s+|her\\s+)?';
const MEDS = '(?:meds|medications?|medicines?|pills|prescriptions?|antidepressants?|painkillers?|opioids?|xanax|ambien)';
const AMOUNT = '(?:\\d+(?:[.,]\\d+)?|one|two|three|four|five|half(?:\\s+a)?|a\\s+half|a\\s+quarter|quarter(?:\\s+of)?(?:\\s+a)?|a\\s+couple(?:\\s+of)?)';
const UNIT = '(?:mg|milligrams?|ml|drops?|gumm(?:y|ies)|edibles?|tabs?|capsules?|pills?|hits?|puffs?|tokes?|doses?|squares?|pieces?|cookies?|chocolates?)';

export const MODERATION_RULES: readonly ModerationRule[] = [
  {
    id: 'medical_claim',
    name: 'Medical or health claim',
    patterns: [
      // "Cure" is also how buds are dried ("a nice slow cure", "well cured"): the claim is curing someone of something.
      /(?<!\b(?:good|nice|great|slow|long|proper|perfect|bad|poor|fresh|cold)\s+)\bcur(?:e|es|ing)\b(?!\s+(?:on|of)\s+(?:the|these|this|those)\s+(?:buds?|flowers?|nugs?))/gi,
      /\bcured\s+(?:my|me|him|her|his|your|our|their|the)\b/gi,
      /\bheal(?:s|ed|ing)?\b/gi,
      new RegExp(`\\b(?:treat(?:s|ed|ing)?|treatment\\s+for|fix(?:es|ed)?|reliev(?:e|es|ed)|help(?:s|ed)?(?:\\s+with)?|got\\s+rid\\s+of|gets?\\s+rid\\s+of|eliminat(?:e|es|ed)|stops?|stopped|reduc(?:e|es|ed)|works\\s+for|good\\s+for)\\s+${MY}${CONDITIONS}\\b`, 'gi'),
      new RegExp(`\\b(?:instead\\s+of|replaced?|replaces|off)\\s+${MY}${MEDS}\\b`, 'gi'),
      new RegExp(`\\bno\\s+(?:longer|more)\\s+(?:need\\s+)?${MY}${MEDS}\\b`, 'gi'),
      /\b(?:doctors?\s+recommend\w*|medically\s+proven|clinically\s+proven|fda\s+approved)\b/gi,
    ],
  },
  {
    id: 'dosing_advice',
    name: 'Dosing advice',
    patterns: [
      new RegExp(`\\b(?:take|took|taking|start(?:ing)?\\s+with|try|eat|ate|have|use|dose\\s+of|no\\s+more\\s+than|max(?:imum)?\\s+of|at\\s+most)\\s+(?:only\\s+|just\\s+|about\\s+|around\\s+)?${AMOUNT}\\s*${UNIT}\\b`, 'gi'),
      /\b\d+(?:[.,]\d+)?\s*mg\s+(?:is|was)\s+(?:enough|plenty|perfect|ideal|the\s+right\s+(?:dose|amount)|too\s+much)\b/gi,
      /\b(?:start|go)\s+low(?:\s+and|,)?\s+(?:go\s+)?slow\b/gi,
      /\bwait\s+(?:at\s+least\s+)?(?:\d+|an?|one|two)\s*(?:hours?|hrs?|minutes?|mins?)\s+(?:before|between)\b/gi,
      /\b(?:recommended|right|ideal|perfect)\s+(?:dose|dosage)\b/gi,
      /\bmicrodos(?:e|es|ed|ing)\b/gi,
    ],
  },
  {
    id: 'contact_details',
    name: 'Contact details',
    patterns: [
      /\b[A-Z0-9._%+-]+@[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}\b/gi,
      // A phone number: 10 digits (optionally +1) in the usual groupings; not a price or a weight.
      /(?<![\w$.])(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}(?![\w.])/g,
      // An @handle (not an e-mail: nothing word-like right before the @).
      /(?<![\w.@])@[A-Za-z0-9_](?:[A-Za-z0-9_.]{1,28}[A-Za-z0-9_])?\b/g,
      /\b(?:dm|text|call|message|msg|hit)\s+me(?:\s+up)?\b/gi,
      /\b(?:snapchat|snap|telegram|whatsapp|signal|insta(?:gram)?|ig|wickr|kik)\b\s*(?::|is\b|at\b|me\b|handle\b)/gi,
    ],
  },
  {
    id: 'link',
    name: 'Link or web address',
    patterns: [
      /\bhttps?:\/\/[^\s<>"')]+/gi,
      /\bwww\.[^\s<>"')]+/gi,
      // A bare domain (not the part of an e-mail after the @).
      /(?<![@\w.-])(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|ly|me|biz|info|shop|xyz|store|app|gg|us|ca)\b(?:\/[^\s<>"')]*)?/gi,
    ],
  },
  {
    id: 'profanity',
    name: 'Profanity',
    patterns: [
      /\bf+u+c+k+(?:s|ed|er|ers|ing|in)?\b/gi,
      /\bmother\s*f+u+c+k+(?:er|ers|ing|in)?\b/gi,
      /\b(?:bull)?shit(?:s|ty|ting|ted|head)?\b/gi,
      /\bbitch(?:es|y|ing)?\b/gi,
      /\bass(?:hole|holes|hat|wipe)\b/gi,
      /\bcunts?\b/gi,
      /\bdick(?:s|head|heads)?\b/gi,
      /\bbastards?\b/gi,
      /\bpiss(?:ed)?\s+off\b/gi,
      /\bwtf\b/gi,
    ],
  },
];

/** The flags of a review's title and text: one per rule that matched, in the table's order. */
export function moderationFlags(texts: readonly string[], rules: readonly ModerationRule[] = MODERATION_RULES): ModerationFlag[] {
  const flags: ModerationFlag[] = [];
  for (const rule of rules) {
    const matches: string[] = [];
    const seen = new Set<string>();
    for (const text of texts) {
      // Spans already matched by this rule: a shorter pattern inside a longer match names nothing new.
      const taken: [number, number][] = [];
      for (const pattern of rule.patterns) {
        for (const m of text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))) {
          const start = m.index;
          const end = start + m[0].length;
          if (taken.some(([a, b]) => start < b && end > a)) continue;
          taken.push([start, end]);
          const word = m[0].trim();
          const key = word.toLowerCase();
          if (word && !seen.has(key)) {
            seen.add(key);
            matches.push(word);
          }
        }
      }
    }
    if (matches.length > 0) flags.push({ rule: rule.id, name: rule.name, matches });
  }
  return flags;
}

/** A rule's plain name by id (flags stored before a rule was renamed show today's name). */
export function moderationRuleName(id: string): string {
  return MODERATION_RULES.find((r) => r.id === id)?.name ?? id;
}
