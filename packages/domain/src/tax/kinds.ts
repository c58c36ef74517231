/** The words a tax line is made of (./lines.ts), below both the rules and their zod schema (./schema.ts). */

export const TAX_LINE_KINDS = ['excise', 'sales'] as const;
export type TaxLineKind = (typeof TAX_LINE_KINDS)[number];

export const TAX_BASES = ['price', 'price_plus_earlier'] as const;
export type TaxBase = (typeof TAX_BASES)[number];

/** Product kinds a tax line can name (the menu's product kinds, coarsely, as tax law sees them). */
export const TAX_PRODUCT_KINDS = ['flower', 'pre_roll', 'concentrate', 'vape', 'infused', 'topical', 'non_cannabis'] as const;
export type TaxProductKind = (typeof TAX_PRODUCT_KINDS)[number];

export const TAX_EXEMPTIONS = ['medical', 'medical_card', 'recreational'] as const;
export type TaxExemption = (typeof TAX_EXEMPTIONS)[number];

export const MAX_TAX_LINES = 20;
