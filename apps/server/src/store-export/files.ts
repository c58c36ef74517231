/**
 * What the store-wide export (issue 31 "the store owns its data and can leave") writes: one entry per
 * file pair `<name>.csv` + `<name>.json`, each with its columns in file order, what each means, and
 * how its rows are read — a page at a time, by id, so a store with 300,000 orders is never held in
 * memory. docs/operators/export.md documents every column (a test checks that it names each one).
 *
 * Units (decided here): money is integer cents in `<name>_cents` in both formats — exact, never a
 * float; the CSV adds `<name>_dollars` beside each (two decimals, for reading in a spreadsheet); the
 * JSON has cents only. Times are ISO-8601 UTC as stored; dates are YYYY-MM-DD. The menu is written
 * in the menu import's own format (menu-import/FORMAT.md), so it re-imports here or elsewhere.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.ts';
import { CsvNumber, csvNumber, type CsvCell } from '../http/csv.ts';
import { COLUMNS as MENU_COLUMNS, cellOf, type MenuRow } from '../menu-import/format.ts';
import { exportMenuRows } from '../menu-import/index.ts';

type Db = Kysely<Database>;
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

export interface ExportColumn<R> {
  name: string;
  meaning: string;
  value(row: R): JsonValue | CsvNumber;
  /** Written to the CSV only (the dollars twin of a cents column). */
  csvOnly?: true;
}

export interface ExportFile<R> {
  /** `customers` → customers.csv and customers.json. */
  name: string;
  /** One line for the manifest and the docs. */
  about: string;
  columns: ExportColumn<R>[];
  /** The store's rows, a page at a time, in a stable order. */
  pages(db: Db, storeId: number, pageSize: number): AsyncIterable<R[]>;
}

/** Cents as dollars with two decimals, exactly (no float): -1234 → "-12.34". */
export function dollarsOf(cents: number): string {
  const abs = Math.abs(Math.trunc(cents));
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function money<R>(name: string, meaning: string, get: (r: R) => number | null | undefined): ExportColumn<R>[] {
  return [
    { name: `${name}_cents`, meaning: `${meaning}, in cents (integer)`, value: (r) => (get(r) == null ? null : Number(get(r))) },
    { name: `${name}_dollars`, meaning: `${meaning}, in dollars (CSV only)`, value: (r) => (get(r) == null ? null : csvNumber(dollarsOf(Number(get(r))))), csvOnly: true },
  ];
}

const col = <R>(name: string, meaning: string, value: (r: R) => JsonValue | undefined): ExportColumn<R> => ({ name, meaning, value: (r) => value(r) ?? null });
const flag = (v: number | null | undefined) => (v == null ? null : Number(v) === 1);

/** Pages of rows by ascending id: `fetch(afterId, limit)` reads the next page. */
async function* byId<T extends { id: number }>(fetch: (afterId: number, limit: number) => Promise<T[]>, pageSize: number): AsyncIterable<T[]> {
  let after = 0;
  for (;;) {
    const rows = await fetch(after, pageSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!.id;
  }
}

function parsed(json: string | null): Record<string, unknown> {
  if (!json) return {};
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const jsonOf = (json: string | null): JsonValue => {
  if (json == null) return null;
  try {
    return JSON.parse(json) as JsonValue;
  } catch {
    return json;
  }
};

// --- customers ------------------------------------------------------------------------------------

const CUSTOMER_FIELDS = [
  'id', 'phone', 'email', 'firstname', 'lastname', 'license_type', 'birthday', 'medcard_number', 'medcard_expiry', 'id_verified',
  'id_status', 'id_review_reason', 'id_reviewed_at', 'medcard_status', 'medcard_review_reason', 'medcard_reviewed_at', 'phone_verified_at', 'created_from',
  'created_at', 'updated_at',
] as const;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the selected columns, as read
type CustomerRow = { id: number } & { [K in (typeof CUSTOMER_FIELDS)[number]]: any };

const customers: ExportFile<CustomerRow> = {
  name: 'customers',
  about: 'Every customer account of the store (never the password).',
  columns: [
    col('id', "The customer's id (orders.customer_id and consents.customer_id point to it).", (r) => r.id),
    col('phone', 'Phone number, E.164 (+15551234567): the login; unique in the store.', (r) => r.phone),
    col('email', 'E-mail address, empty when none.', (r) => r.email),
    col('first_name', 'First name.', (r) => r.firstname),
    col('last_name', 'Last name.', (r) => r.lastname),
    col('license_type', 'recreational or medical.', (r) => r.license_type),
    col('birthday', 'Date of birth, YYYY-MM-DD.', (r) => r.birthday),
    col('medcard_number', 'Medical card number staff recorded.', (r) => r.medcard_number),
    col('medcard_expiry', 'Medical card expiry, YYYY-MM-DD.', (r) => r.medcard_expiry),
    col('id_verified', 'true when the ID was verified.', (r) => flag(r.id_verified)),
    col('id_status', 'ID check: none, pending, verified or rejected.', (r) => r.id_status),
    col('id_review_reason', 'Why staff rejected the ID.', (r) => r.id_review_reason),
    col('id_reviewed_at', 'When staff decided on the ID (UTC).', (r) => r.id_reviewed_at),
    col('medcard_status', 'Medical card check: none, pending, verified or rejected.', (r) => r.medcard_status),
    col('medcard_review_reason', 'Why staff rejected the card.', (r) => r.medcard_review_reason),
    col('medcard_reviewed_at', 'When staff decided on the card (UTC).', (r) => r.medcard_reviewed_at),
    col('phone_verified_at', 'When the phone was proved with a texted code (UTC).', (r) => r.phone_verified_at),
    col('created_from', 'Where the account was made (checkout, account, …).', (r) => r.created_from),
    col('created_at', 'When the account was made (UTC).', (r) => r.created_at),
    col('updated_at', 'Last change (UTC).', (r) => r.updated_at),
  ],
  pages: (db, storeId, size) =>
    byId(
      (after, limit) =>
        db.selectFrom('customers').select([...CUSTOMER_FIELDS]).where('store_id', '=', storeId).where('id', '>', after).orderBy('id').limit(limit).execute() as Promise<CustomerRow[]>,
      size,
    ),
};

// --- consents -------------------------------------------------------------------------------------

type ConsentRow = Selectable<Database['consent_events']>;

const consents: ExportFile<ConsentRow> = {
  name: 'consents',
  about: 'The consent ledger: every grant and withdrawal of consent to texts and e-mails, append-only (TCPA proof).',
  columns: [
    col('id', 'The entry id (ascending in time).', (r) => r.id),
    col('customer_id', 'The customer, empty for a guest or a deleted account.', (r) => r.customer_id),
    col('contact', 'The phone (E.164) or e-mail the consent is for; a pseudonym after an account deletion.', (r) => r.contact),
    col('channel', 'sms or email.', (r) => r.channel),
    col('purpose', 'transactional or marketing.', (r) => r.purpose),
    col('action', 'granted or withdrawn.', (r) => r.action),
    col('source', 'Which form or path recorded it (stock_alert_form, unsubscribe_link, sms_stop, …).', (r) => r.source),
    col('words', 'The exact words the shopper was shown (empty for a STOP reply).', (r) => r.words),
    col('at', 'When (UTC).', (r) => r.at),
  ],
  pages: (db, storeId, size) =>
    byId((after, limit) => db.selectFrom('consent_events').selectAll().where('store_id', '=', storeId).where('id', '>', after).orderBy('id').limit(limit).execute(), size),
};

// --- orders ---------------------------------------------------------------------------------------

type OrderRow = Selectable<Database['orders']> & { details: Record<string, unknown>; address: Record<string, unknown> };

const orders: ExportFile<OrderRow> = {
  name: 'orders',
  about: 'Every order of the store with its totals; its lines are in order_lines.',
  columns: [
    col('id', 'The order id (order_lines.order_id points to it).', (r) => r.id),
    col('number', 'The order number shoppers and staff see.', (r) => r.increment_id),
    col('status', 'submitted, confirmed, ready_for_pickup, out_for_delivery, completed, cancelled or no_show.', (r) => r.status),
    col('order_type', 'pickup or delivery (curbside is a pickup).', (r) => r.order_type),
    col('license_type', 'recreational or medical.', (r) => r.license_type),
    col('payment_method', 'How the shopper said they would pay.', (r) => r.payment_method),
    col('coupon_code', 'The coupon code used, if any.', (r) => r.coupon_code),
    col('placed_at', 'When the order was placed (UTC).', (r) => r.created_at),
    col('status_changed_at', 'When the status last changed (UTC); for a completed order, when it was paid and handed over.', (r) => r.status_changed_at),
    col('customer_id', 'The customer account, empty for a guest (or a deleted account).', (r) => r.customer_id),
    col('first_name', 'First name given with the order.', (r) => text(r.details.firstName)),
    col('last_name', 'Last name given with the order.', (r) => text(r.details.lastName)),
    col('phone', 'Phone given with the order.', (r) => text(r.details.phone)),
    col('email', 'E-mail given with the order.', (r) => text(r.details.emailAddress) ?? text(r.details.email)),
    col('delivery_address', 'Street address of a delivery.', (r) => text(r.address.address)),
    col('delivery_apt', 'Apartment or suite.', (r) => text(r.address.apt_ste)),
    col('delivery_city', 'City.', (r) => text(r.address.city)),
    col('delivery_region', 'State.', (r) => text(r.address.region)),
    col('delivery_zip', 'ZIP code.', (r) => text(r.address.zip) ?? text(r.address.postcode)),
    col('slot_start', 'The booked time slot’s start (UTC); empty for as soon as possible.', (r) => r.slot_start),
    col('slot_end', 'The booked time slot’s end (UTC).', (r) => r.slot_end),
    ...money<OrderRow>('subtotal', 'Goods before discounts (gross)', (r) => r.subtotal_cents),
    ...money<OrderRow>('discount', 'Discounts taken off (a positive amount), deals included', (r) => r.discount_cents),
    ...money<OrderRow>('deal_discount', 'The part of the discount that deals gave', (r) => r.deal_discount_cents),
    ...money<OrderRow>('excise_tax', 'Cannabis excise tax', (r) => r.excise_tax_cents),
    ...money<OrderRow>('sales_tax', 'Sales tax', (r) => r.sales_tax_cents),
    ...money<OrderRow>('delivery_fee', 'Delivery fee', (r) => r.shipping_cents),
    ...money<OrderRow>('credits_used', 'Store credit applied', (r) => r.credits_used_cents),
    ...money<OrderRow>('total', 'What the shopper pays: subtotal − discount + excise + sales tax + delivery fee', (r) => r.total_cents),
    col('thc_equivalent_grams', 'Flower-equivalent grams counted toward purchase limits.', (r) => Number(r.thc_equivalent_grams)),
    col('birthday', 'Date of birth checked for the order, YYYY-MM-DD.', (r) => r.birthday),
    col('minimum_age', 'The minimum age applied.', (r) => r.minimum_age),
    col('cancel_reason', 'Why it was cancelled (a code).', (r) => r.cancel_reason),
    col('purged_at', 'When the order was reduced to its anonymous totals past the sales-record period (UTC); empty: whole.', (r) => r.purged_at),
  ],
  pages: async function* (db, storeId, size) {
    for await (const page of byId((after, limit) => db.selectFrom('orders').selectAll().where('store_id', '=', storeId).where('id', '>', after).orderBy('id').limit(limit).execute(), size))
      yield page.map((o) => ({ ...o, details: parsed(o.personal_details), address: parsed(o.shipping_address) }));
  },
};

// --- order lines ----------------------------------------------------------------------------------

type LineRow = Selectable<Database['order_items']> & { order_number: string };

const orderLines: ExportFile<LineRow> = {
  name: 'order_lines',
  about: 'What each order sold: one line per product and size, with its price, discounts and taxes.',
  columns: [
    col('id', 'The line id.', (r) => r.id),
    col('order_id', 'The order (orders.id).', (r) => r.order_id),
    col('order_number', 'The order number.', (r) => r.order_number),
    col('product_id', 'The product (menu) id at order time.', (r) => r.product_id),
    col('sku', 'The sku sold (the size’s own sku).', (r) => r.sku),
    col('parent_sku', 'The product’s sku when a size of it was sold.', (r) => r.parent_sku),
    col('name', 'Product name as sold.', (r) => r.name),
    col('qty', 'Quantity (packages).', (r) => Number(r.qty)),
    col('size', 'Size id of weighed flower (91–95), empty otherwise.', (r) => r.size),
    col('uom', 'g (sold by weight) or ea (a package).', (r) => r.uom),
    ...money<LineRow>('price', 'Unit price', (r) => r.price_cents),
    ...money<LineRow>('row_total', 'Unit price × quantity', (r) => r.row_total_cents),
    ...money<LineRow>('discount', 'Discount on the line', (r) => r.discount_cents),
    ...money<LineRow>('deal_discount', 'The part of the line’s discount that deals gave', (r) => r.deal_discount_cents),
    ...money<LineRow>('excise_tax', 'Excise tax on the line', (r) => r.excise_tax_cents),
    ...money<LineRow>('sales_tax', 'Sales tax on the line', (r) => r.sales_tax_cents),
    col('thc_equivalent_grams', 'Flower-equivalent grams of the line.', (r) => Number(r.thc_equivalent_grams)),
    col('options', 'The chosen options, JSON (a JSON value in the .json file).', (r) => jsonOf(r.product_option)),
    col('deals', 'Each deal’s share of the line’s discount: [{code, title, discount_cents}], JSON.', (r) => jsonOf(r.deal_discounts)),
  ],
  // A page of the store's orders, then their lines by the order index: never a scan of every store's lines.
  pages: async function* (db, storeId, size) {
    for await (const page of byId(
      (after, limit) => db.selectFrom('orders').select(['id', 'increment_id']).where('store_id', '=', storeId).where('id', '>', after).orderBy('id').limit(limit).execute(),
      size,
    )) {
      const numbers = new Map(page.map((o) => [o.id, o.increment_id]));
      const lines = await db.selectFrom('order_items').selectAll().where('order_id', 'in', [...numbers.keys()]).orderBy('order_id').orderBy('id').execute();
      if (lines.length) yield lines.map((l) => ({ ...l, order_number: numbers.get(l.order_id) ?? '' }));
    }
  },
};

// --- menu -----------------------------------------------------------------------------------------

const menu: ExportFile<MenuRow> = {
  name: 'menu',
  about: 'The menu — products, sizes, prices, stock — in the menu import format (one row per size), ready to import again.',
  columns: MENU_COLUMNS.map((c) => col<MenuRow>(c.name, c.help, (r) => cellOf(r, c.name))),
  // A menu is thousands of rows, not hundreds of thousands: read as the menu export reads it.
  pages: async function* (db, storeId) {
    yield await exportMenuRows(db, storeId);
  },
};

// --- deals ----------------------------------------------------------------------------------------

type DealRow = Selectable<Database['deals']>;

const deals: ExportFile<DealRow> = {
  name: 'deals',
  about: 'Every deal, with its whole record in the deals format (docs/operators/deals.md).',
  columns: [
    col('id', 'The deal id.', (r) => r.id),
    col('code', 'The deal’s code (its `id` in the record; what orders name).', (r) => r.code),
    col('external_id', 'The store’s own id for it (integration API).', (r) => r.external_id),
    col('kind', 'The deal kind: set_discount, buy_get, mix_match, bundle or threshold.', (r) => r.kind),
    col('title', 'The title staff gave it.', (r) => r.title),
    col('status', 'active, paused or ended (a schedule is in the record).', (r) => r.status),
    col('redeemed', 'Orders holding a redemption of a budgeted deal.', (r) => Number(r.redeemed)),
    col('record', 'The whole deal as JSON (a JSON object in the .json file): rules, amounts, schedule, limits.', (r) => jsonOf(r.record)),
    col('created_at', 'When it was made (UTC).', (r) => r.created_at),
    col('created_by', 'Who made it.', (r) => r.created_by),
    col('updated_at', 'Last change (UTC).', (r) => r.updated_at),
    col('updated_by', 'Who changed it last.', (r) => r.updated_by),
  ],
  pages: (db, storeId, size) =>
    byId((after, limit) => db.selectFrom('deals').selectAll().where('store_id', '=', storeId).where('id', '>', after).orderBy('id').limit(limit).execute(), size),
};

/** Every file of the export, in archive order. */
export const EXPORT_FILES: readonly ExportFile<any>[] = [customers, consents, orders, orderLines, menu, deals];

/** A column's value as a CSV cell: JSON values as JSON text, booleans as true/false. */
export function csvCellOf(v: JsonValue | CsvNumber): CsvCell {
  if (v == null) return null;
  if (typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof CsvNumber) return v;
  return JSON.stringify(v);
}
