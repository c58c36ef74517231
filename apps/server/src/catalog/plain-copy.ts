/**
 * A tree copy of a catalogue document: every array and plain object copied, primitives as they
 * are, keys in the same order. Documents in memory share objects between them (one frozen empty
 * list, one ref per category, one `{attribute_code, value}` per pair: issue 15, memory per
 * product). Whatever hands a document to React Router's loader data must hand out a copy:
 * turbo-stream writes an object it meets twice once and refers to it after, so a shared object
 * would change the HTML (not the data), and a route that changed a shared object would change it
 * for every product. One product page copies one product (a few hundred objects).
 */
export function plainCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainCopy) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = plainCopy((value as Record<string, unknown>)[key]);
  return out as T;
}
