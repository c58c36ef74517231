/** The two licence types a shopper buys under (spec §6). */
export const LICENSE_TYPES = ['recreational', 'medical'] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];

export function isLicenseType(value: unknown): value is LicenseType {
  return value === 'recreational' || value === 'medical';
}

export const LICENSE_LABELS: Readonly<Record<LicenseType, string>> = {
  recreational: 'Recreational',
  medical: 'Medical',
};

/** Minimum age to enter any store (spec §1, §9). */
export const AGE_THRESHOLD = 21;

/** The youngest any store may set for medical orders (issue 14, setting `age`): 18 is the lowest age any state licenses a patient to buy themselves. */
export const MEDICAL_MINIMUM_AGE_FLOOR = 18;

/** Whole years between a birthday (YYYY-MM-DD) and `now`, by calendar date. */
export function ageOn(birthday: string, now: Date): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthday);
  if (!m) throw new RangeError(`Invalid birthday: ${birthday}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = now.getUTCFullYear() - y;
  const beforeBirthday =
    now.getUTCMonth() + 1 < mo || (now.getUTCMonth() + 1 === mo && now.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

export function isOfAge(birthday: string, now: Date = new Date()): boolean {
  return ageOn(birthday, now) >= AGE_THRESHOLD;
}
