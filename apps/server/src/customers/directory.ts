/**
 * The customer directory of a store (issue 31): who matches a search, 20 a page, with how many
 * orders each placed and when the last one was.
 *
 * How `q` is read (`matched_by`):
 *  - empty: every customer of the store, newest first;
 *  - with an `@`: an e-mail address, by prefix (addresses are stored lower-cased);
 *  - a valid phone number in any spelling ("916-555-0142", "(916) 555 0142", "+19165550142"):
 *    the customer of that number, exactly, in E.164 (users/phone.ts) — the (store, phone) index;
 *  - anything else: a name. One word matches the start of the first name, the last name or the
 *    e-mail address; several words match the first name by the first word and the last name by
 *    the rest ("jane do" finds Jane Doe).
 * Prefixes are ranges on the indexes of migration 0041 (`>= 'jan' and < 'jao'` on lower(name)),
 * which SQLite and PostgreSQL both answer from the index: no LIKE, no table scan. Case folding is
 * lower() of the database: PostgreSQL folds every letter, SQLite only A–Z (a name with "É" is
 * found by its other letters or by phone).
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { CUSTOMER_PAGE_SIZE, type CustomerList, type CustomerListItem, type CustomerSearchQuery } from '@verdant/domain/console-api';
import type { Database } from '../db/schema.ts';
import { databaseInfo } from '../db/registry.ts';
import { toE164 } from '../users/phone.ts';

type Db = Kysely<Database>;
type Eb = ExpressionBuilder<Database, 'customers'>;

export type Matched = CustomerList['matched_by'];

export interface SearchPlan {
  matched_by: Matched;
  /** phone: the E.164 number; email: the lower-cased prefix; name: the lower-cased words. */
  phone?: string;
  email?: string;
  words?: string[];
}

/** What kind of search `q` is (pure: the tests and the route read it the same way). */
export function planSearch(q: string): SearchPlan {
  const text = q.trim();
  if (!text) return { matched_by: 'all' };
  if (text.includes('@')) return { matched_by: 'email', email: text.toLowerCase() };
  // A phone: digits and the usual punctuation only, and a number libphonenumber accepts.
  if (/^[+\d\s().-]+$/.test(text) && (text.match(/\d/g)?.length ?? 0) >= 7) {
    const phone = toE164(text);
    if (phone) return { matched_by: 'phone', phone };
  }
  return { matched_by: 'name', words: text.toLowerCase().split(/\s+/) };
}

/** The first string after every string that starts with `prefix` (code point order): 'jan' → 'jao'. */
export function prefixEnd(prefix: string): string {
  const points = [...prefix];
  while (points.length) {
    const last = (points.pop() as string).codePointAt(0) as number;
    // The last code point has no successor: every string after the shorter prefix's range.
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last + 1);
  }
  return '\u{10FFFF}'.repeat(2);
}

/** `expr` starts with `prefix`, as a range the index answers (PostgreSQL: in the index's "C" collation). */
function startsWith(eb: ExpressionBuilder<Database, 'customers'>, postgres: boolean, expr: 'firstname' | 'lastname' | 'email', prefix: string): Expression<SqlBool> {
  const column = expr === 'email' ? sql`email` : sql`lower(${sql.ref(expr)})`;
  const lhs = postgres ? sql`${column} collate "C"` : column;
  return eb.and([eb(lhs, '>=', prefix), eb(lhs, '<', prefixEnd(prefix))]);
}

const isUnion = (plan: SearchPlan) => plan.matched_by === 'name' && (plan.words as string[]).length === 1;

export function searchFilter(db: Db, storeId: number, plan: SearchPlan, postgres: boolean) {
  return (eb: Eb): Expression<SqlBool> => {
    switch (plan.matched_by) {
      case 'phone':
        return eb('phone', '=', plan.phone as string);
      case 'email':
        return startsWith(eb, postgres, 'email', plan.email as string);
      case 'name': {
        const words = plan.words as string[];
        if (words.length > 1)
          return eb.and([startsWith(eb, postgres, 'firstname', words[0]), startsWith(eb, postgres, 'lastname', words.slice(1).join(' '))]);
        // One word: first name, last name or e-mail. A union of three ranges, each on its own index:
        // SQLite's planner, left to an OR, may range over one index by the store alone (every row).
        const on = (column: 'firstname' | 'lastname' | 'email') =>
          db
            .selectFrom('customers')
            .select('id')
            .where('store_id', '=', storeId)
            .where((inner) => startsWith(inner, postgres, column, words[0]));
        return eb('id', 'in', on('firstname').union(on('lastname')).union(on('email')));
      }
      default:
        return eb.lit(true) as unknown as Expression<SqlBool>;
    }
  };
}

export const customerName = (c: { firstname: string | null; lastname: string | null }): string =>
  [c.firstname, c.lastname].filter((p) => p && p.trim()).join(' ').trim();

export const lastFour = (phone: string): string => phone.replace(/\D/g, '').slice(-4);

/** The customers matching `q` in the store (a query builder: the route pages it, the index test EXPLAINs it). */
export function matching(db: Db, storeId: number, plan: SearchPlan) {
  const all = db.selectFrom('customers');
  if (plan.matched_by === 'all') return all.where('store_id', '=', storeId);
  const filter = searchFilter(db, storeId, plan, databaseInfo(db)?.dialect === 'postgres');
  // One word: the union's ranges already hold only the store's rows; naming the store outside too
  // makes SQLite walk the store's rows by index and test each against the list.
  return isUnion(plan) ? all.where(filter) : all.where('store_id', '=', storeId).where(filter);
}

/** One page of the matches, in name order (everyone: newest first). */
export function pageQuery(db: Db, storeId: number, plan: SearchPlan, page: number) {
  const q = matching(db, storeId, plan).select(['id', 'firstname', 'lastname', 'email', 'phone', 'license_type', 'created_at', 'merged_into']);
  const ordered =
    plan.matched_by === 'all'
      ? q.orderBy('id', 'desc')
      : q
          .orderBy(sql`coalesce(lower(lastname), '')`)
          .orderBy(sql`coalesce(lower(firstname), '')`)
          .orderBy('id');
  return ordered.limit(CUSTOMER_PAGE_SIZE).offset((page - 1) * CUSTOMER_PAGE_SIZE);
}

export async function searchCustomers(db: Db, storeId: number, query: CustomerSearchQuery, full: boolean): Promise<CustomerList> {
  const plan = planSearch(query.q);
  const [{ total }] = await matching(db, storeId, plan)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .execute();
  const rows = await pageQuery(db, storeId, plan, query.page).execute();
  const ids = rows.map((r) => r.id);
  const counts = ids.length
    ? await db
        .selectFrom('orders')
        .select((eb) => ['customer_id', eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('last')])
        .where('store_id', '=', storeId)
        .where('customer_id', 'in', ids)
        .groupBy('customer_id')
        .execute()
    : [];
  const byCustomer = new Map(counts.map((c) => [c.customer_id as number, c]));
  const items = rows.map((r): CustomerListItem => {
    const c = byCustomer.get(r.id);
    return {
      id: r.id,
      name: customerName(r),
      email: r.email,
      phone: full ? r.phone : null,
      phone_last4: lastFour(r.phone),
      license_type: r.license_type,
      created_at: r.created_at,
      orders_count: Number(c?.n ?? 0),
      last_order_at: (c?.last as string | null | undefined) ?? null,
      merged_into: r.merged_into ?? null,
    };
  });
  return { q: query.q, matched_by: plan.matched_by, page: query.page, page_size: CUSTOMER_PAGE_SIZE, total: Number(total), full, items };
}
