import type { Route } from './+types/cms-page';
import { offlineFallback } from '../lib/offline-catalog.ts';
import { CmsContent, PageShell } from '../components/page/PageShell.tsx';
import { notFound } from '../lib/guards.ts';
import { absoluteUrl, pageMeta } from '../lib/meta.ts';
import { outputCacheHeaders } from '../lib/output-cache.ts';

/** /i/{slug}: a CMS page by identifier (spec §2); no such page is a 404. */
async function load({ params, context, url }: Route.LoaderArgs) {
  const identifier = params.slug.toLowerCase();
  const page = await context.services.cmsPage(context.store, identifier);
  if (!page) notFound();
  return {
    title: page.title,
    content: page.content,
    metaTitle: page.meta_title,
    metaDescription: page.meta_description,
    canonical: absoluteUrl(url.href, context.basePath, `/i/${encodeURIComponent(page.identifier)}`),
  };
}

export const loader = (args: Route.LoaderArgs) => load(args);

/** Offline (issue 6): the service worker's copy of the data, else this loader run on the catalogue snapshot. */
export const clientLoader = (args: Route.ClientLoaderArgs) => offlineFallback(args, load);

export const headers: Route.HeadersFunction = () => outputCacheHeaders();

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.metaTitle || loaderData?.title,
    description: loaderData?.metaDescription,
    canonical: loaderData?.canonical,
  });

export default function CmsPage({ loaderData }: Route.ComponentProps) {
  return (
    <PageShell title={loaderData.title}>
      <CmsContent content={loaderData.content} />
    </PageShell>
  );
}
