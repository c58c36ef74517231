/** The store setting (section `age`): the minimum age of a medical order (schema: ./schema.ts). Recreational is always 21. */
export interface AgeSettings {
  medicalMinimumAge: number;
}
