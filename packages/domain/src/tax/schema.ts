/**
 * The zod schema of the `tax` settings section (issue 14; what a line is: ./lines.ts). Kept apart
 * from the computation so the browser's cart, which computes taxes on every page, does not load
 * zod and these schemas (the console and the server validate with them).
 */
import { z } from 'zod';
import { MAX_TAX_LINES, TAX_BASES, TAX_EXEMPTIONS, TAX_LINE_KINDS, TAX_PRODUCT_KINDS } from './kinds.ts';

/** A rate in percent with at most four decimals (8.75, 10.25, 6.25; 4 decimals covers every US rate). */
const rateSchema = z
  .number({ error: 'The rate must be a number (percent)' })
  .min(0, 'The rate must be 0 % or more')
  .max(100, 'The rate must be at most 100 %')
  .refine((v) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6, 'The rate may have at most 4 decimals');

const thcSchema = (what: string) =>
  z
    .number({ error: `${what} must be a number (percent THC)` })
    .min(0, `${what} must be 0 or more`)
    .max(100, `${what} must be at most 100`);

export const taxLineSchema = z
  .object({
    code: z
      .string({ error: 'Each tax line needs a code' })
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'A tax line code is 1–40 lowercase letters, digits and dashes, e.g. "ca-excise"'),
    title: z
      .string({ error: 'Each tax line needs a title' })
      .trim()
      .min(1, 'A tax line needs a title')
      .max(80, 'A tax line title is at most 80 characters'),
    kind: z.enum(TAX_LINE_KINDS, { error: 'The kind is "excise" or "sales"' }),
    rate: rateSchema,
    base: z.enum(TAX_BASES, { error: 'The base is "price" or "price_plus_earlier"' }).default('price'),
    applies_to: z
      .object({
        tax_class_ids: z.array(z.number().int().positive('A product tax class id is a positive whole number')).min(1).max(50).optional(),
        kinds: z
          .array(z.enum(TAX_PRODUCT_KINDS, { error: `A product kind is one of ${TAX_PRODUCT_KINDS.join(', ')}` }))
          .min(1)
          .optional(),
        thc_percent_above: thcSchema('"THC above"').optional(),
        thc_percent_at_most: thcSchema('"THC at most"').optional(),
      })
      .strict()
      .default({})
      .refine(
        (a) => a.thc_percent_above == null || a.thc_percent_at_most == null || a.thc_percent_above < a.thc_percent_at_most,
        '"THC above" must be below "THC at most"',
      ),
    exempt: z.array(z.enum(TAX_EXEMPTIONS, { error: `An exemption is one of ${TAX_EXEMPTIONS.join(', ')}` })).default([]),
  })
  .strict();

export type TaxLineInput = z.input<typeof taxLineSchema>;
export type TaxLine = z.output<typeof taxLineSchema>;

export const taxSettingsSchema = z
  .object({
    lines: z.array(taxLineSchema).max(MAX_TAX_LINES, `A store has at most ${MAX_TAX_LINES} tax lines`),
  })
  .strict()
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.lines.forEach((l, i) => {
      if (seen.has(l.code))
        ctx.addIssue({ code: 'custom', path: ['lines', i, 'code'], message: `The tax line code "${l.code}" is used twice` });
      seen.add(l.code);
    });
  });

export type TaxSettings = z.output<typeof taxSettingsSchema>;

/** Parse a stored or submitted value (throws a ZodError naming the field). */
export function parseTaxSettings(value: unknown): TaxSettings {
  return taxSettingsSchema.parse(value);
}
