/**
 * Index documents for the entities the domain package has no document type for yet (spec §3 tax
 * rule, CMS page and block). Shaped after the database tables (apps/server/src/db/tables).
 */
export interface TaxRateDocument {
  id: number;
  code: string;
  kind: 'excise' | 'sales';
  /** Percent: 15 means 15 %. */
  rate: number;
  tax_country_id: string;
  region_name: string | null;
  tax_region_id: number;
  tax_postcode: string | null;
}

export interface TaxRuleDocument {
  id: number;
  code: string;
  priority: number;
  position: number;
  product_tax_class_ids: number[];
  customer_tax_class_ids: number[];
  rates: TaxRateDocument[];
}

export interface CmsPageDocument {
  id: number;
  identifier: string;
  title: string;
  content_heading: string | null;
  /** Plain paragraphs separated by blank lines; never HTML. */
  content: string;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface CmsBlockDocument {
  id: number;
  identifier: string;
  title: string;
  content: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}
