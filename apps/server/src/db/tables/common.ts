import type { ColumnType } from 'kysely';

/** Integer boolean: 0 = false, 1 = true (SQLite has no boolean type). */
export type Flag = 0 | 1;
/** ISO-8601 UTC timestamp text, e.g. `2026-11-20T09:05:00.000Z`; sorts correctly as a string. */
export type Timestamp = string;
/** Serialised JSON; parse it where it is read. */
export type JsonText = string;
/** A column with a database default: optional on insert. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
