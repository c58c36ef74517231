/**
 * The checks of the agreement test (document.test.ts), as functions over any app, so the test runs
 * them on the real app and on a tiny app built wrong on purpose (to show they catch disagreement).
 *
 *  - routeAgreement: every served /api route (the app's own route table, http/body-policy.ts) is
 *    in the document unless OUT_OF_DOCUMENT says why not, and every documented operation is served.
 *  - invalidRequests: for every operation with a body, query or path-parameter schema, requests the
 *    document calls invalid (derived from its JSON Schema: a required property missing, a wrong type,
 *    a value outside an enum, pattern or length, an unknown property where none is allowed) must be
 *    answered 400 with the words of the declared zod schema, and the declared schema object (or a
 *    member of a declared union) must be the one the handler parsed the request with (its safeParse
 *    is watched while the request runs; the handler's behaviour is unchanged).
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import Ajv2020 from 'ajv/dist/2020.js';
import type { z } from 'zod';
import { routesOf } from '../../src/http/body-policy.ts';
import type { RouteDocs } from '../../src/http/route-docs.ts';
import { collectedRoutesOf, isDocumentable, openApiPath } from '../../src/openapi/document.ts';

type Json = Record<string, any>;

export interface RouteAgreement {
  /** Served routes that belong in the document but are not in it ("GET /api/x"). */
  undocumented: string[];
  /** Documented operations no route serves. */
  unserved: string[];
}

export function routeAgreement(app: FastifyInstance, doc: Json): RouteAgreement {
  const served = routesOf(app);
  const servedKeys = new Set(served.map((r) => `${r.method} ${openApiPath(r.url)}`));
  const documented = new Set<string>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
  }
  const undocumented = served
    // Fastify's automatic HEAD twin of a GET answers what the GET answers; a HEAD of its own must be documented.
    .filter((r) => !(r.method === 'HEAD' && servedKeys.has(`GET ${openApiPath(r.url)}`)))
    .filter((r) => r.url.startsWith('/api/') && (r.method === 'HEAD' || isDocumentable(r.method, r.url)))
    .map((r) => `${r.method} ${openApiPath(r.url)}`)
    .filter((key) => !documented.has(key));
  const unserved = [...documented].filter((key) => !servedKeys.has(key));
  return { undocumented: [...new Set(undocumented)], unserved };
}

/** Values of every JSON type, and strings that break common constraints; the document decides which are wrong. */
const BODY_VALUES: unknown[] = [{ wrong: 'type' }, 'no-such-value-∅', 12345.5, -1, true, [], null, '', 'x'.repeat(5000)];
const QUERY_VALUES: string[] = ['no-such-value-∅', '12345.5', '-1', '', 'x'.repeat(5000), 'true'];
/** Path values stay short and non-empty: an empty one is another path, a long one Fastify's own 400 (maxParamLength). */
const PATH_VALUES: string[] = ['no-such-value-∅', '12345.5', '-1', 'true'];
/**
 * Not varied: `storeCode` picks the store (spec §4) before any handler runs (app.ts onRequest and
 * http/request-store.ts requestStore), so a wrong one answers 404 "store not found" by design, whatever
 * the route's own schema says.
 */
const GLOBAL_PARAMS = new Set(['storeCode']);

const AJV = new Ajv2020({ strict: false });
const AJV_COERCING = new Ajv2020({ strict: false, coerceTypes: true });

export interface Candidate {
  where: 'body' | 'query' | 'params';
  value: Record<string, unknown>;
}

function branchesOf(schema: Json): Json[] {
  return Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [schema];
}

/** Inputs the JSON Schema refuses, one per way it can be broken (a few per operation). */
export function invalidCandidates(schema: Json, where: Candidate['where']): Json[] {
  // Query and path values arrive as strings: a number-typed parameter takes "12" (as OpenAPI serialises it).
  const ajv = where === 'body' ? AJV : AJV_COERCING;
  const validate = ajv.compile(schema);
  const isValid = (value: unknown) => validate(structuredClone(value));
  const out: Json[] = [];
  // A path always carries its parameters: only their values can be wrong.
  if (where !== 'params' && !isValid({})) out.push({});
  const properties = new Map<string, true>();
  for (const branch of branchesOf(schema)) for (const name of Object.keys(branch.properties ?? {})) properties.set(name, true);
  for (const name of properties.keys()) {
    if (GLOBAL_PARAMS.has(name)) continue;
    const values = where === 'body' ? BODY_VALUES : where === 'query' ? QUERY_VALUES : PATH_VALUES;
    const wrong = values.find((v) => !isValid({ [name]: v }) && refusedForValue(ajv, schema, name, v, isValid));
    if (wrong !== undefined) out.push({ [name]: wrong });
  }
  if (branchesOf(schema).some((b) => b.additionalProperties === false) && !isValid({ unknown_property_x: '1' })) {
    out.push({ unknown_property_x: '1' });
  }
  return out;
}

/**
 * Whether `{name: value}` is refused because of the value (not only because required properties
 * are missing): with required properties, it must also be refused when it is the only thing wrong
 * as far as the schema can tell, i.e. the property's own schema refuses the value.
 */
function refusedForValue(ajv: Ajv2020, schema: Json, name: string, value: unknown, isValid: (v: unknown) => boolean): boolean {
  if (isValid({})) return true;
  return branchesOf(schema).every((b) => {
    const property = b.properties?.[name];
    return property === undefined || !ajv.validate(property, structuredClone(value));
  });
}

/** Every message a zod error carries, union branches included (the route shows the first of one branch). */
function messagesOf(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => [
    issue.message,
    ...('errors' in issue && Array.isArray(issue.errors) ? (issue.errors as z.core.$ZodIssue[][]).flatMap((e) => messagesOf(e)) : []),
  ]);
}

/** The declared schema and the members of a declared union: the objects a handler may parse with. */
function parsersOf(schema: z.ZodType): z.ZodType[] {
  const def = (schema as unknown as { def?: { type?: string; options?: z.ZodType[] } }).def;
  return def?.type === 'union' && def.options ? [schema, ...def.options.flatMap(parsersOf)] : [schema];
}

/** Watch safeParse on these schema objects while `run` runs; returns the inputs each was given. */
async function watchParses<T>(schemas: z.ZodType[], run: () => Promise<T>): Promise<{ result: T; parsed: unknown[] }> {
  const parsed: unknown[] = [];
  const restore: (() => void)[] = [];
  for (const schema of new Set(schemas)) {
    const own = Object.prototype.hasOwnProperty.call(schema, 'safeParse');
    const original = schema.safeParse;
    const watched = (...args: Parameters<typeof original>) => {
      parsed.push(args[0]);
      return original.apply(schema, args);
    };
    (schema as { safeParse: unknown }).safeParse = watched;
    restore.push(() => {
      if (own) (schema as { safeParse: unknown }).safeParse = original;
      else delete (schema as { safeParse?: unknown }).safeParse;
    });
  }
  try {
    return { result: await run(), parsed };
  } finally {
    for (const r of restore) r();
  }
}

export interface InvalidRequestProblem {
  operation: string;
  where: Candidate['where'];
  sent: unknown;
  problem: string;
}

export interface InvalidRequestReport {
  /** Operations with an input schema, and how many invalid requests each was sent. */
  checked: Map<string, number>;
  /** Operations with an input schema the document does not let us break (nothing refused). */
  unbreakable: string[];
  problems: InvalidRequestProblem[];
}

export interface RequestContext {
  host?: string;
  /** Headers for every request (e.g. a customer's Authorization), by operation security. */
  headersFor?: (docs: RouteDocs) => Record<string, string>;
}

function pathWith(url: string, params: Record<string, unknown>, fallback: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(String(params[name] ?? fallback)));
}

/** Send every operation the invalid requests its document derives, and collect what disagrees. */
export async function invalidRequests(app: FastifyInstance, doc: Json, ctx: RequestContext = {}): Promise<InvalidRequestReport> {
  const report: InvalidRequestReport = { checked: new Map(), unbreakable: [], problems: [] };
  for (const route of collectedRoutesOf(app)) {
    const docs = route.docs;
    if (!docs || !isDocumentable(route.method, route.url)) continue;
    const operation = `${route.method} ${openApiPath(route.url)}`;
    const op = doc.paths?.[openApiPath(route.url)]?.[route.method.toLowerCase()] as Json | undefined;
    if (!op) continue; // routeAgreement reports it
    const inputs: { where: Candidate['where']; zod: z.ZodType; json: Json }[] = [];
    const parameterSchema = (location: string): Json => {
      const list = ((op.parameters ?? []) as Json[]).filter((p) => p.in === location);
      return {
        type: 'object',
        properties: Object.fromEntries(list.map((p) => [p.name, p.schema])),
        required: list.filter((p) => p.required).map((p) => p.name),
      };
    };
    if (docs.body) inputs.push({ where: 'body', zod: docs.body, json: op.requestBody.content['application/json'].schema });
    if (docs.query) {
      const json = parameterSchema('query');
      // additionalProperties is not part of OpenAPI parameters; the strictness of the query schema is in zod only.
      inputs.push({ where: 'query', zod: docs.query, json });
    }
    if (docs.params) inputs.push({ where: 'params', zod: docs.params, json: parameterSchema('path') });
    if (inputs.length === 0) continue;
    let sent = 0;
    for (const input of inputs) {
      const candidates = invalidCandidates(input.json, input.where);
      for (const value of candidates) {
        sent++;
        const problem = (text: string) => report.problems.push({ operation, where: input.where, sent: value, problem: text });
        const declared = input.zod.safeParse(value);
        if (declared.success) {
          problem('the document refuses this input but the declared zod schema accepts it (the document misdescribes the schema)');
          continue;
        }
        const expected = messagesOf(declared.error.issues);
        const options: InjectOptions = {
          method: route.method as InjectOptions['method'],
          url: pathWith(route.url, input.where === 'params' ? value : {}, '1'),
          headers: { host: ctx.host ?? 'localhost', ...(ctx.headersFor?.(docs) ?? {}) },
        };
        // Only the input under test: a route reading its query when there is no body (DELETE /api/newsletter) reads this one.
        if (input.where === 'query') options.query = value as Record<string, string>;
        if (input.where === 'body') options.payload = value;
        const { result: res, parsed } = await watchParses(parsersOf(input.zod), () => app.inject(options));
        const answer = (() => {
          try {
            return res.json() as { code?: number; result?: unknown };
          } catch {
            return { result: res.body };
          }
        })();
        if (res.statusCode !== 400) {
          problem(`answered ${res.statusCode} ${JSON.stringify(answer.result)?.slice(0, 200)}, not 400`);
          continue;
        }
        const words = String(answer.result);
        if (!expected.some((m) => words.includes(m))) {
          problem(`400 "${words}" is not in the declared schema's words (${JSON.stringify(expected.slice(0, 4))})`);
          continue;
        }
        if (parsed.length === 0) problem('the handler did not parse the request with the declared schema object');
      }
    }
    if (sent === 0) {
      // Nothing the document refuses: at least a request it accepts must reach the declared schema and not be refused as invalid.
      report.unbreakable.push(operation);
      const headers = { host: ctx.host ?? 'localhost', ...(ctx.headersFor?.(docs) ?? {}) };
      const options: InjectOptions = { method: route.method as InjectOptions['method'], url: pathWith(route.url, {}, '1'), headers };
      if (docs.body) options.payload = {};
      const { result: res, parsed } = await watchParses(
        inputs.flatMap((i) => parsersOf(i.zod)),
        () => app.inject(options),
      );
      if (parsed.length === 0 || res.statusCode === 400) {
        report.problems.push({
          operation,
          where: inputs[0].where,
          sent: {},
          problem: `a request valid by the document: ${res.statusCode}, parsed with the declared schema: ${parsed.length > 0}`,
        });
      }
    }
    report.checked.set(operation, sent);
  }
  return report;
}
