/**
 * The moderation rules, table-driven: each row is a text, the rules it must flag (by id) and, where
 * it matters, the words that must be named. Rows with no rules are the false-positive guards.
 */
import { describe, expect, it } from 'vitest';
import { MODERATION_RULES, moderationFlags, moderationRuleName, type ModerationRuleId } from './moderation.ts';
import { reviewProblems, reviewAuthor, roundAverage, REVIEW_MESSAGES } from './model.ts';
import { reviewInputSchema } from './schema.ts';

type Row = [text: string, rules: ModerationRuleId[], words?: string[]];

const CASES: Row[] = [
  // Medical or health claims
  ['This strain cures my insomnia every time.', ['medical_claim'], ['cures']],
  ['Honestly the cure for a bad week', ['medical_claim'], ['cure']],
  ['This jar cures my anxiety', ['medical_claim'], ['cures']],
  ['It treats anxiety better than anything', ['medical_claim'], ['treats anxiety']],
  ['Really helps with my chronic pain', ['medical_claim'], ['helps with my chronic pain']],
  ['I got off my meds thanks to this', ['medical_claim'], ['off my meds']],
  ['I use it instead of my prescription', ['medical_claim'], ['instead of my prescription']],
  ['No longer need my sleeping pills? No: no longer need pills', ['medical_claim']],
  ['Clinically proven to relax you', ['medical_claim']],
  ['It healed my back', ['medical_claim'], ['healed']],
  ['Relieved my migraines within minutes', ['medical_claim']],
  // … and what is not a claim
  ['Comes in secure, child-proof packaging', []],
  ['I was curious about the flavour', []],
  ['Well cured and trimmed, a nice slow cure on these buds', []],
  ['Cured my insomnia', ['medical_claim'], ['Cured my']],
  ['Great for your health? no claims here, just a healthy jar', []],
  ['I treated myself to an eighth after work', []],
  ['Relaxed and happy, nice body feel', []],
  ['My friend treats this as a weekend thing', []],
  // Dosing advice
  ['Take 10 mg and wait', ['dosing_advice'], ['Take 10 mg']],
  ['Start with half a gummy, trust me', ['dosing_advice'], ['Start with half a gummy']],
  ['Start low and go slow with these', ['dosing_advice']],
  ['Wait 2 hours before taking more', ['dosing_advice']],
  ['5mg is plenty for beginners', ['dosing_advice']],
  ['No more than 2 hits if you are new', ['dosing_advice']],
  ['I have been microdosing these', ['dosing_advice']],
  // … and what is not advice
  ['The 3.5 g jar was full and fresh', []],
  ['Five stars, would buy again', []],
  ['Took a while to kick in but nice', []],
  ['Each gummy is 10 mg, tastes like mango', []],
  // Contact details
  ['Text me at (916) 555-0123 for more', ['contact_details'], ['Text me', '(916) 555-0123']],
  ['reach me: 916.555.0123', ['contact_details'], ['916.555.0123']],
  ['+1 916 555 0123 anytime', ['contact_details']],
  ['mail me at ana.reyes@example.com', ['contact_details'], ['ana.reyes@example.com']],
  ['follow @greenqueen_420 for more', ['contact_details'], ['@greenqueen_420']],
  ['DM me for the hookup', ['contact_details']],
  ['my snapchat: budlover', ['contact_details']],
  // … and what is not contact details
  ['Paid $35.00 for 3.5 g, worth it', []],
  ['Batch 20260615 was better than 2025', []],
  ['Rated 4.5/5, 28 g limit, 1000 mg total', []],
  // Links (an e-mail alone is contact details, not also a link)
  ['Better deals at https://example.org/deals', ['link'], ['https://example.org/deals']],
  ['see www.budsforless.net', ['link']],
  ['cheaper on greenleafdeals.com right now', ['link'], ['greenleafdeals.com']],
  ['Write to bob@mail.com', ['contact_details']],
  // … and what is not a link
  ['Nice buds. Great smell.Really sticky', []],
  ['Version 2.0 of this vape is better', []],
  // Profanity
  ['This is fucking great', ['profanity'], ['fucking']],
  ['Total bullshit, dry as dust', ['profanity'], ['bullshit']],
  ['What an asshole budtender', ['profanity']],
  ['Shitty packaging', ['profanity'], ['Shitty']],
  // … and the Scunthorpe problem
  ['Smells like a classic Scunthorpe pub, in a good way', []],
  ['Glass jar, assorted flavours, passable price', []],
  ['Cocktail of terpenes; reminded me of Dickens novels', []],
  ['Shiitake mushroom earthiness', []],
  // Several rules at once, each named once
  ['Cures anxiety! Text me 916-555-0123 or visit www.x.io, take 20 mg, fucking great', ['medical_claim', 'dosing_advice', 'contact_details', 'link', 'profanity']],
  ['cure CURE Cure', ['medical_claim'], ['cure']],
];

describe('moderation rules', () => {
  it.each(CASES)('%s → %j', (text, rules, words) => {
    const flags = moderationFlags([text]);
    expect(flags.map((f) => f.rule)).toEqual(rules);
    for (const f of flags) {
      expect(f.name).toBe(moderationRuleName(f.rule));
      expect(f.matches.length).toBeGreaterThan(0);
    }
    if (words) expect(flags.flatMap((f) => f.matches)).toEqual(expect.arrayContaining(words));
    if (words && rules.length === 1) expect([...flags[0].matches].sort()).toEqual([...words].sort());
  });

  it('looks at the title and the text, and every rule has an id and a plain name', () => {
    expect(moderationFlags(['Cures all', 'Great smoke']).map((f) => f.rule)).toEqual(['medical_claim']);
    expect(new Set(MODERATION_RULES.map((r) => r.id)).size).toBe(MODERATION_RULES.length);
    for (const r of MODERATION_RULES) expect(r.name).toMatch(/^[A-Z][a-z ]+$/);
    expect(moderationRuleName('gone_rule')).toBe('gone_rule');
  });
});

describe('review input', () => {
  const good = { stars: 4, title: 'Smooth smoke', text: 'Citrus nose, smooth smoke, very relaxing.', effects: ['relaxed'], flavours: ['citrus'] };
  const cases: [string, Record<string, unknown>, string | null][] = [
    ['a good review', good, null],
    ['0 stars', { ...good, stars: 0 }, REVIEW_MESSAGES.stars],
    ['6 stars', { ...good, stars: 6 }, REVIEW_MESSAGES.stars],
    ['3.5 stars', { ...good, stars: 3.5 }, REVIEW_MESSAGES.stars],
    ['a short title', { ...good, title: ' a ' }, REVIEW_MESSAGES.title],
    ['a long title', { ...good, title: 'x'.repeat(101) }, REVIEW_MESSAGES.title],
    ['a short text', { ...good, text: 'ok' }, REVIEW_MESSAGES.text],
    ['a long text', { ...good, text: 'x'.repeat(2001) }, REVIEW_MESSAGES.text],
    ['an unknown effect', { ...good, effects: ['flying'] }, REVIEW_MESSAGES.effects],
    ['six effects', { ...good, effects: ['relaxed', 'sleepy', 'happy', 'euphoric', 'uplifted', 'calm'] }, REVIEW_MESSAGES.effects],
    ['a flavour twice', { ...good, flavours: ['citrus', 'citrus'] }, REVIEW_MESSAGES.flavours],
  ];
  it.each(cases)('%s: the browser and the server say the same', (_name, input, message) => {
    const problems = Object.values(reviewProblems(input as never));
    const parsed = reviewInputSchema.safeParse(input);
    if (message === null) {
      expect(problems).toEqual([]);
      expect(parsed.success).toBe(true);
    } else {
      expect(problems).toEqual([message]);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toContain(message);
    }
  });

  it('names the author by first name and initial, and rounds the average', () => {
    expect(reviewAuthor('Ana', 'reyes')).toBe('Ana R.');
    expect(reviewAuthor(null, 'Reyes')).toBe('A customer');
    expect(reviewAuthor('Ana', null)).toBe('Ana');
    expect(roundAverage(14, 3)).toBe(4.7);
    expect(roundAverage(0, 0)).toBe(0);
  });
});
