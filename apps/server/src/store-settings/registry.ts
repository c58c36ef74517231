/**
 * The sections of a store's settings (issue 14). Each section is one JSON document per store with
 * its own zod schema: hours and time slots, delivery zones, tax lines, purchase-limit buckets, …
 * A section module defines itself once:
 *
 *   export const HOURS = defineSection({ name: 'hours', title: 'Hours and time slots', schema, initial: (store) => … });
 *
 * and is imported by ./sections.ts (one line per section), so the server knows every section
 * before it starts: a stores file whose `settings.<section>` is invalid stops the start, naming the
 * field. Where a store's value comes from, first to last: what a manager saved in the console
 * (table store_settings), the stores file's `settings.<section>`, the section's `initial(store)`.
 */
import type { Store } from '@verdant/domain';
import type { z } from 'zod';

export interface SettingsSection<T = unknown> {
  /** Key in the stores file's `settings`, the table and the console URL: lowercase letters and dashes. */
  name: string;
  /** Shown in the console and its history. */
  title: string;
  schema: z.ZodType<T>;
  /** The value when neither the console nor the stores file gave one (e.g. derived from today's flat settings). */
  initial(store: Store): T;
}

const sections = new Map<string, SettingsSection>();

export function defineSection<T>(section: SettingsSection<T>): SettingsSection<T> {
  if (!/^[a-z][a-z-]*$/.test(section.name)) throw new Error(`settings section name "${section.name}": lowercase letters and dashes`);
  const known = sections.get(section.name);
  if (known && known !== (section as SettingsSection)) throw new Error(`settings section "${section.name}" is defined twice`);
  sections.set(section.name, section as SettingsSection);
  return section;
}

export function sectionNamed(name: string): SettingsSection | undefined {
  return sections.get(name);
}

export function allSections(): SettingsSection[] {
  return [...sections.values()];
}
