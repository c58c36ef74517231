import { z } from 'zod';
import { LICENSE_TYPES } from './license.ts';

/**
 * A store as defined in the stores file (STORES_FILE), spec §3 "Store". The file is validated with
 * this schema at start; an invalid file stops the server with the path of the bad field.
 */
const perTransactionLimit = z.object({
  per_transaction: z.object({
    /** Grams of THC-equivalent usable cannabis one order may contain. */
    usable_max: z.number().positive(),
  }),
});

const hoursEntry = z.object({
  day: z.enum(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']),
  open: z.string().regex(/^\d{2}:\d{2}$/, 'expected HH:mm'),
  close: z.string().regex(/^\d{2}:\d{2}$/, 'expected HH:mm'),
});

const special = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  description: z.string(),
  /** When set, the deal links to the menu filtered by this discount group. */
  discount_group_id: z.number().int().positive().optional(),
});

export const storeSchema = z
  .object({
    storeCode: z.string().regex(/^[a-z][a-z0-9-]*$/, 'lowercase letters, digits and dashes'),
    storeId: z.number().int().positive(),
    name: z.string().min(1),
    url: z.string().url(),
    logo: z.string().min(1),
    /** Other host labels that open this store (spec §1 aliases). */
    aliases: z.array(z.string().regex(/^[a-z0-9-]+$/)).default([]),
    /** Links carry `/{storeCode}` in front when true (spec §2). */
    appendStoreCode: z.boolean().default(false),
    themeColor: z.string().regex(/^#[0-9a-fA-F]{6}$/).default('#166534'),
    /**
     * The store's own operating and compliance settings by section (issue 14: `hours`, `zones`,
     * `tax`, `limits`, …), each checked by its section's schema when the server starts
     * (apps/server/src/store-settings/). What managers save in the console overrides them.
     */
    settings: z.record(z.string(), z.unknown()).optional(),
    dispensarySettings: z.object({
      license_recreational: z.boolean(),
      license_medical: z.boolean(),
      compliance_settings: z
        .object({
          limits: z.partialRecord(z.enum(LICENSE_TYPES), perTransactionLimit),
          /** Category url_keys the store's compliance rules hide from the menu. */
          hidden_categories: z.array(z.string()).default([]),
        })
        .optional(),
      /** Current deals, shown on the home page. */
      specials: z.array(special).default([]),
      /** Skus the operator pins to the front of the best-sellers list. */
      best_sellers: z.array(z.string()).default([]),
      place_info: z.object({
        address: z.object({
          street: z.string().min(1),
          city: z.string().min(1),
          region: z.string().min(1),
          region_code: z.string().length(2),
          postcode: z.string().min(3),
          country_id: z.string().length(2),
        }),
        lat: z.number().min(-90).max(90),
        lng: z.number().min(-180).max(180),
        phone: z.string().min(7),
        email: z.string().email().optional(),
        hours: z.array(hoursEntry).min(1),
        timezone: z.string().min(1),
        /** The state licence number, required on every page (CA B&P §26151(a)). */
        license_number: z.string().min(1),
        delivery_radius_miles: z.number().nonnegative().default(0),
      }),
    }),
    seo: z.object({
      defaultTitle: z.string().min(1),
      description: z.string().default(''),
      defaultLogo: z.string().optional(),
      poweredByLogo: z.string().optional(),
    }),
    i18n: z
      .object({
        currencyCode: z.literal('USD'),
        defaultLocale: z.literal('en-US'),
      })
      .default({ currencyCode: 'USD', defaultLocale: 'en-US' }),
    /**
     * Catalogue behaviour per store. preventConfigurableChildrenDirectAccess (spec §2): opening a
     * configurable child (a size) answers its parent, and the page redirects there with 301.
     * listOutOfStockProducts (spec §7 "out-of-stock listing"): list products that are out of stock.
     */
    catalog: z
      .object({
        preventConfigurableChildrenDirectAccess: z.boolean().default(true),
        listOutOfStockProducts: z.boolean().default(false),
      })
      .prefault({}),
    tax: z
      .object({
        defaultCountry: z.string().length(2).default('US'),
        defaultRegion: z.string().default(''),
        sourcePriceIncludesTax: z.boolean().default(false),
        finalPriceIncludesTax: z.boolean().default(false),
        /** Customer group used for tax and price tiers when nobody is logged in. */
        userGroupId: z.number().int().nonnegative().default(0),
      })
      .prefault({}),
  })
  .refine((s) => s.dispensarySettings.license_recreational || s.dispensarySettings.license_medical, {
    message: 'a store must enable at least one licence type',
    path: ['dispensarySettings'],
  })
  .refine(
    (s) =>
      !s.dispensarySettings.compliance_settings ||
      LICENSE_TYPES.every(
        (lt) =>
          !(lt === 'recreational' ? s.dispensarySettings.license_recreational : s.dispensarySettings.license_medical) ||
          s.dispensarySettings.compliance_settings?.limits[lt] != null,
      ),
    {
      message: 'every licence type the store offers needs a per_transaction limit',
      path: ['dispensarySettings', 'compliance_settings', 'limits'],
    },
  );

export type Store = z.infer<typeof storeSchema>;

/** The host rules of spec §1, kept beside the stores so an operator can read them in one file. */
export const hostRulesSchema = z.object({
  /** Legacy host labels renamed to current store codes. */
  renames: z.record(z.string(), z.string()).default({}),
  /** The store that an unmapped `shop` label opens. */
  shopLabelStore: z.string().optional(),
  /** `www.{domain}` hosts that open a given store. */
  wwwDomains: z.record(z.string(), z.string()).default({}),
});

export type HostRules = z.infer<typeof hostRulesSchema>;

export const storesFileSchema = z
  .object({
    defaultStoreCode: z.string(),
    hostRules: hostRulesSchema.prefault({}),
    stores: z.array(storeSchema).min(1),
  })
  .superRefine((file, ctx) => {
    const codes = new Map<string, number>();
    const ids = new Set<number>();
    file.stores.forEach((s, i) => {
      for (const label of [s.storeCode, ...s.aliases]) {
        if (codes.has(label)) {
          ctx.addIssue({ code: 'custom', path: ['stores', i, 'storeCode'], message: `"${label}" is used twice` });
        }
        codes.set(label, i);
      }
      if (ids.has(s.storeId)) {
        ctx.addIssue({ code: 'custom', path: ['stores', i, 'storeId'], message: `storeId ${s.storeId} is used twice` });
      }
      ids.add(s.storeId);
    });
    const known = new Set(file.stores.map((s) => s.storeCode));
    const mustExist = (code: string | undefined, path: (string | number)[]) => {
      if (code !== undefined && !known.has(code)) {
        ctx.addIssue({ code: 'custom', path, message: `unknown store code "${code}"` });
      }
    };
    mustExist(file.defaultStoreCode, ['defaultStoreCode']);
    mustExist(file.hostRules.shopLabelStore, ['hostRules', 'shopLabelStore']);
    for (const [from, to] of Object.entries(file.hostRules.renames)) mustExist(to, ['hostRules', 'renames', from]);
    for (const [domain, to] of Object.entries(file.hostRules.wwwDomains)) mustExist(to, ['hostRules', 'wwwDomains', domain]);
  });

export type StoresFile = z.infer<typeof storesFileSchema>;

/** Parse a stores file; throws an Error whose message names every bad field by its path. */
export function parseStoresFile(data: unknown): StoresFile {
  const result = storesFileSchema.safeParse(data);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`Invalid stores file:\n${lines.join('\n')}`);
  }
  return result.data;
}
