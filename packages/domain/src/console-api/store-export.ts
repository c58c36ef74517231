/**
 * The store-wide export (issue 31, apps/server/src/store-export/), under /stores/:storeId:
 *   GET /stores/:storeId/export.zip   store:export (owners)   a zip (application/zip, streamed):
 *     customers, consents, orders, order_lines, menu, deals — each as `<name>.csv` and `<name>.json` —
 *     and manifest.json ({format, documentation, store, exported_at, money, files: [{name, rows, about}]}).
 *   GET /stores/:storeId/export/format   store:export (owners)   every file and column with its meaning
 *     (StoreExportFormat), as docs/operators/export.md lists them: the console shows it beside the button.
 * Every file and column: docs/operators/export.md.
 */

/** The files of the archive, as the console lists them. */
export const STORE_EXPORT_FILES = ['customers', 'consents', 'orders', 'order_lines', 'menu', 'deals'] as const;

export interface StoreExportColumn {
  name: string;
  meaning: string;
  /** Only in the CSV (the dollars beside a cents column). */
  csv_only: boolean;
}

export interface StoreExportFormat {
  format: string;
  files: { name: string; about: string; columns: StoreExportColumn[] }[];
}
