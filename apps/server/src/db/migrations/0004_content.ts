/**
 * CMS pages and blocks (plain text, never HTML) and URL rewrites: legacy and vanity paths that
 * resolve to a product, category or CMS page, in place (0) or by redirect (301/302).
 */
import { sql, type Kysely } from 'kysely';
import { dropTables, flag, index, notNull, ref, type DialectMigration } from './helpers.ts';

async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cms_pages')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('identifier', 'text', notNull)
    .addColumn('title', 'text', notNull)
    .addColumn('content_heading', 'text')
    .addColumn('content', 'text', notNull)
    .addColumn('meta_title', 'text')
    .addColumn('meta_description', 'text')
    .addColumn('meta_keywords', 'text')
    .addColumn('is_active', 'integer', flag(1))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await index(db, 'cms_pages', ['store_id', 'identifier'], true);

  await db.schema
    .createTable('cms_blocks')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('identifier', 'text', notNull)
    .addColumn('title', 'text', notNull)
    .addColumn('content', 'text', notNull)
    .addColumn('is_active', 'integer', flag(1))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await index(db, 'cms_blocks', ['store_id', 'identifier'], true);

  await db.schema
    .createTable('url_rewrites')
    .addColumn('store_id', 'integer', ref('stores.id'))
    .addColumn('request_path', 'text', notNull)
    .addColumn('target_type', 'text', notNull)
    .addColumn('target_id', 'integer')
    .addColumn('target_sku', 'text')
    .addColumn('redirect_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('url_rewrites_pkey', ['store_id', 'request_path'])
    .addCheckConstraint('url_rewrites_target_type_check', sql`target_type in ('product', 'category', 'cms_page')`)
    .addCheckConstraint('url_rewrites_redirect_type_check', sql`redirect_type in (0, 301, 302)`)
    .execute();
}

export const migration0004: DialectMigration = {
  up: (db) => up(db),
  down: (db) => dropTables(db, ['url_rewrites', 'cms_blocks', 'cms_pages']),
};
