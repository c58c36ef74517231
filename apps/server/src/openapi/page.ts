/**
 * GET /api/docs: the OpenAPI document as a page a person reads (issue 13). Our own server-rendered
 * HTML, no script and nothing from a CDN (the API's CSP allows neither): one section per tag, one
 * article per operation with method, path, summary, description, parameters, request body schema,
 * responses and who may call it. Schemas are shown as formatted JSON Schema.
 */

type Json = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** An id usable in href="#…" for an operation. */
export function operationAnchor(method: string, path: string): string {
  return `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

const SECURITY_TEXT: Record<string, (scopes: string[]) => string> = {
  customerBearer: () => 'customer access token as Authorization: Bearer',
  customerTokenQuery: () => 'customer access token as the token query parameter',
  staffSession: () => 'staff session cookie of the console',
  apiKey: (scopes) => `store API key (Authorization: Bearer) with scope ${scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')}`,
};

function securityHtml(security: Json[] | undefined): string {
  if (!security || security.length === 0) return '<p><strong>Who may call it:</strong> anybody (no credentials).</p>';
  const ways = security.map((requirement) =>
    Object.entries(requirement)
      .map(([scheme, scopes]) => SECURITY_TEXT[scheme]?.(scopes as string[]) ?? escapeHtml(scheme))
      .join(' and '),
  );
  return `<p><strong>Who may call it:</strong> ${ways.join('; or ')}.</p>`;
}

/** A schema in a box that scrolls: focusable and named, so a keyboard can scroll it too (axe scrollable-region-focusable). */
function schemaHtml(schema: unknown, label: string): string {
  return `<pre tabindex="0" role="region" aria-label="${escapeHtml(label)}"><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre>`;
}

function parametersHtml(parameters: Json[] | undefined, headingId: string): string {
  if (!parameters?.length) return '';
  const rows = parameters
    .map(
      (p) =>
        `<tr><th scope="row"><code>${escapeHtml(p.name)}</code></th><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td>` +
        `<td><code>${escapeHtml(JSON.stringify(p.schema ?? {}))}</code>${p.description ? ` ${escapeHtml(p.description)}` : ''}</td></tr>`,
    )
    .join('');
  return (
    `<h4 id="${headingId}">Parameters</h4><table aria-labelledby="${headingId}"><thead><tr><th scope="col">Name</th><th scope="col">In</th>` +
    `<th scope="col">Required</th><th scope="col">Schema</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function operationHtml(method: string, path: string, op: Json): string {
  const id = operationAnchor(method, path);
  const body = op.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
    .map(([status, r]) => `<dt>${escapeHtml(status)}</dt><dd>${escapeHtml(r.description ?? '')}</dd>`)
    .join('');
  const description = op.description ? `<p class="description">${escapeHtml(op.description)}</p>` : '';
  return `<article class="operation" aria-labelledby="${id}">
<h3 id="${id}"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary ?? '')}</p>
${description}
${securityHtml(op.security)}
${parametersHtml(op.parameters, `${id}-parameters`)}
${body ? `<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>${schemaHtml(body, `Request body schema of ${method.toUpperCase()} ${path}`)}` : ''}
<h4>Responses</h4><dl class="responses">${responses}</dl>
</article>`;
}

/** The whole page for a document built by buildOpenApiDocument. */
export function renderDocsPage(doc: Json): string {
  const byTag = new Map<string, string[]>();
  const toc = new Map<string, string[]>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
      toc.set(tag, [
        ...(toc.get(tag) ?? []),
        `<li><a href="#${operationAnchor(method, path)}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`,
      ]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const tagId = (tag: string) => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  const nav = tags.map((t) => `<li><a href="#${tagId(t)}">${escapeHtml(t)}</a><ul>${toc.get(t)!.join('')}</ul></li>`).join('');
  const sections = tags
    .map((t) => `<section aria-labelledby="${tagId(t)}"><h2 id="${tagId(t)}">${escapeHtml(t)}</h2>${byTag.get(t)!.join('\n')}</section>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info?.title ?? 'API')} — documentation</title>
<style>
body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;color:#1a1a1a;background:#fff}
header,main,nav{max-width:64rem;margin:0 auto;padding:0 1rem}
a{color:#0b5394}
pre{background:#f4f4f4;padding:.75rem;overflow:auto;max-height:24rem;border:1px solid #ccc}
pre:focus-visible{outline:3px solid #0b5394;outline-offset:2px}
code{font-family:ui-monospace,monospace}
.description{white-space:pre-wrap}
.operation{border-top:1px solid #ccc;padding:.5rem 0 1rem}
.method{display:inline-block;min-width:4.5rem;padding:0 .4rem;border-radius:.25rem;color:#fff;background:#333;text-align:center;font-size:.9rem}
.method-get{background:#0b5e2c}.method-post{background:#0b4a8b}.method-put,.method-patch{background:#7a4a00}.method-delete{background:#9b1c1c}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
dt{font-weight:bold}
</style>
</head>
<body>
<header>
<h1>${escapeHtml(doc.info?.title ?? 'API')} <small>version ${escapeHtml(String(doc.info?.version ?? ''))}</small></h1>
<p class="description">${escapeHtml(doc.info?.description ?? '')}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(String(doc.openapi))}).</p>
</header>
<nav aria-label="Operations"><h2>Operations</h2><ul>${nav}</ul></nav>
<main>
${sections}
</main>
</body>
</html>
`;
}
