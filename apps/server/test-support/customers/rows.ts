/**
 * A `customers` row for tests that write customers straight to the database (many at once, or in
 * another store): the given contact and name, a recreational adult, nothing reviewed or uploaded.
 */
import type { Insertable } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

type CustomerInsert = Insertable<Database['customers']>;

export function customerRow(
  fields: Pick<CustomerInsert, 'store_id' | 'phone' | 'email' | 'firstname' | 'lastname'> & Partial<CustomerInsert>,
  at: string,
): CustomerInsert {
  return {
    license_type: 'recreational',
    birthday: '1990-01-01',
    medcard_number: null,
    medcard_expiry: null,
    created_from: null,
    password_hash: null,
    id_review_reason: null,
    id_reviewed_by: null,
    id_reviewed_at: null,
    medcard_review_reason: null,
    medcard_reviewed_by: null,
    medcard_reviewed_at: null,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}
