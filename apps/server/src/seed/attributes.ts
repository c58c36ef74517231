/**
 * Attribute metadata (spec §3 "Attribute"): labels, options and whether an attribute shows in
 * comparisons and filters. The default filters of spec §9 (size, sale, staff_pick, best_seller,
 * price, license_type, brand_id, discount_group_id) are filterable. Attributes are global.
 */
import { SIZE_IDS, sizeLongLabel } from '@verdant/domain';
import type { AttributeOption, Row } from '../db/schema.ts';
import { BRANDS, DISCOUNT_GROUPS } from './data/merch.ts';

export const SIZE_ATTRIBUTE_ID = 142;

const yesNo: AttributeOption[] = [
  { value: '1', label: 'Yes' },
  { value: '0', label: 'No' },
];

interface AttributeDef {
  id: number;
  code: string;
  label: string;
  input: 'select' | 'boolean' | 'text' | 'decimal';
  comparable: boolean;
  filterable: boolean;
  options?: AttributeOption[];
}

const DEFS: AttributeDef[] = [
  {
    id: SIZE_ATTRIBUTE_ID,
    code: 'size',
    label: 'Size',
    input: 'select',
    comparable: true,
    filterable: true,
    options: SIZE_IDS.map((s) => ({ value: String(s), label: sizeLongLabel(s) })),
  },
  {
    id: 143,
    code: 'brand_id',
    label: 'Brand',
    input: 'select',
    comparable: true,
    filterable: true,
    options: BRANDS.map((b) => ({ value: String(b.id), label: b.name })),
  },
  {
    id: 144,
    code: 'discount_group_id',
    label: 'Deal',
    input: 'select',
    comparable: false,
    filterable: true,
    options: DISCOUNT_GROUPS.map((g) => ({ value: String(g.id), label: g.name })),
  },
  {
    id: 145,
    code: 'strain_type',
    label: 'Strain type',
    input: 'select',
    comparable: true,
    filterable: true,
    options: ['Indica', 'Sativa', 'Hybrid', 'CBD'].map((t) => ({ value: t, label: t })),
  },
  {
    id: 146,
    code: 'license_type',
    label: 'License type',
    input: 'select',
    comparable: false,
    filterable: true,
    options: [
      { value: 'recreational', label: 'Recreational' },
      { value: 'medical', label: 'Medical' },
      { value: 'both', label: 'Recreational and medical' },
    ],
  },
  {
    id: 147,
    code: 'staff_pick',
    label: 'Staff pick',
    input: 'boolean',
    comparable: false,
    filterable: true,
    options: yesNo,
  },
  {
    id: 148,
    code: 'best_seller',
    label: 'Best seller',
    input: 'boolean',
    comparable: false,
    filterable: true,
    options: yesNo,
  },
  { id: 149, code: 'sale', label: 'On sale', input: 'boolean', comparable: false, filterable: true, options: yesNo },
  { id: 150, code: 'thc_percent', label: 'THC %', input: 'decimal', comparable: true, filterable: false },
  { id: 151, code: 'cbd_percent', label: 'CBD %', input: 'decimal', comparable: true, filterable: false },
  { id: 152, code: 'grow_type', label: 'Grow type', input: 'text', comparable: true, filterable: false },
  { id: 153, code: 'lineage', label: 'Lineage', input: 'text', comparable: true, filterable: false },
  { id: 154, code: 'dominant_terpene', label: 'Dominant terpene', input: 'text', comparable: true, filterable: false },
  { id: 155, code: 'thc_mg', label: 'THC per package (mg)', input: 'decimal', comparable: true, filterable: false },
  { id: 156, code: 'cbd_mg', label: 'CBD per package (mg)', input: 'decimal', comparable: true, filterable: false },
  { id: 157, code: 'pieces', label: 'Pieces', input: 'text', comparable: true, filterable: false },
  { id: 158, code: 'net_weight', label: 'Net weight', input: 'text', comparable: true, filterable: false },
];

export function attributeRows(): Row<'attributes'>[] {
  return DEFS.map((d, position) => ({
    attribute_id: d.id,
    attribute_code: d.code,
    frontend_label: d.label,
    frontend_input: d.input,
    // size, brand and the rest are ours, not platform system attributes.
    is_user_defined: 1,
    is_visible: 1,
    is_comparable: d.comparable ? 1 : 0,
    is_filterable: d.filterable ? 1 : 0,
    position,
    options: JSON.stringify(d.options ?? []),
  }));
}
