/** The deterministic demo catalogue: pure generation, writing, and first-start seeding. */
export {
  DEFAULT_PRODUCTS_PER_STORE,
  MIN_PRODUCTS_PER_STORE,
  generateCatalog,
  type DemoCatalog,
  type DemoImage,
  type GenerateCatalogOptions,
  type StoreCatalog,
} from './catalog.ts';
export { MEDIA_DIR, ensureSeeded, seedDemo, writeProductImages, type SeedDemoOptions, type SeedSummary } from './write.ts';
export { readStoresFile } from './stores-file.ts';
export { seedDemoDeals } from './deals.ts';
export { seedDemoFleet } from './delivery.ts';
export { STORE_CATALOG_TABLES, type StoreCatalogTable } from './rows.ts';
export { CATEGORY_TREE, TOP_CATEGORY_NAMES } from './categories.ts';
export { STATIC_PAGE_IDENTIFIERS, INACTIVE_PAGE_IDENTIFIER } from './content.ts';
export { BUNDLE_SKU, GROUPED_SKU } from './kits.ts';
export { SIZE_CODES, storeCarries } from './assortment.ts';
export { NEWSLETTER_COUPON, CANNABIS_EXCISE_PERCENT, salesTaxPercent } from './tax.ts';
export {
  CANNA_TYPE,
  CUSTOMER_TAX_CLASS_RETAIL,
  GRAMS_PER_CONCENTRATE_GRAM,
  GRAMS_PER_MG_THC,
  TAX_CLASS_CANNABIS,
  TAX_CLASS_GENERAL,
} from './data/merch.ts';
export {
  DEPLOYMENT_CITIES,
  MAX_DEPLOYMENT_STORES,
  deploymentStoreCode,
  deploymentStoresFile,
  seedDeployment,
  type SeedDeploymentOptions,
  type SeedDeploymentSummary,
} from './deployment.ts';
