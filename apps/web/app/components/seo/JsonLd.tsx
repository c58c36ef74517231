import { jsonLdHtml } from '../../lib/json-ld.ts';

/** An inline JSON-LD block; the helper escapes `<` so data can never end the script element. */
export function JsonLd({ data }: { data: unknown }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdHtml(data) }} />;
}
