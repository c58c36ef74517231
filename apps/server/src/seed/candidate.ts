/** The shape every per-kind template produces, and helpers the templates share. */
import type { ProductLicenseType } from '../db/schema.ts';
import { BRANDS, type ProductKind } from './data/merch.ts';
import type { StrainType } from './data/strains.ts';
import type { CategoryKey } from './categories.ts';
import type { Rng } from './prng.ts';

export interface Candidate {
  name: string;
  category: CategoryKey;
  brandId: number;
  strainType?: StrainType | null;
  thcPercent?: number | null;
  cbdPercent?: number | null;
  tags: string[];
  licenseType?: ProductLicenseType;
  cannaType: number;
  taxClassId: number;
  unitWeight?: number | null;
  /** Whole cents; accessories end in .99, cannabis in whole dollars. */
  basePriceCents: number;
  discountGroupId?: number | null;
  /** `{brand}` is replaced by the brand name. */
  shortDescription: string;
  description: string;
  attributes?: Record<string, string>;
  customOptions?: boolean;
}

export type CandidateSource = (rng: Rng) => Candidate[];

export function brandsFor(kind: ProductKind): number[] {
  return BRANDS.filter((b) => b.kinds.includes(kind)).map((b) => b.id);
}

/** Mostly both licence types; a few batches labelled for one market only (CA A- and M-labels). */
export function licence(rng: Rng, medicalShare: number, recreationalShare: number): ProductLicenseType {
  const r = rng.next();
  if (r < medicalShare) return 'medical';
  if (r < medicalShare + recreationalShare) return 'recreational';
  return 'both';
}
