import type { AppLoadContext, EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { isbot } from 'isbot';
import { renderToPipeableStream, renderToString, type RenderToPipeableStreamOptions } from 'react-dom/server';
import { CspNonce } from './lib/csp-nonce.ts';
import { imagePreloadLinks, stylesheetLink } from './lib/early-preloads.ts';
import { cardFragments, layoutFragments, pageFragments } from './lib/fragment-cache.ts';
import { renderedResponse } from './lib/render-sink.ts';
import stylesheet from './app.css?url';

// Product cards' inner markup, and the header's and footer's, is rendered once per version and
// reused (lib/fragment-cache.ts); SSR_FRAGMENT_CACHE=0 renders all of it every time (same HTML).
if (process.env.SSR_FRAGMENT_CACHE !== '0') {
  cardFragments.setRenderer(renderToString);
  layoutFragments.setRenderer(renderToString);
  pageFragments.setRenderer(renderToString);
}

/** Loaders' deferred data is rejected after this; the render is aborted a second later. */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> | Response {
  if (request.method.toUpperCase() === 'HEAD') {
    responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    // Crawlers (and SPA mode) get the complete document; browsers get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // The server's CSP allows inline scripts only with this answer's nonce: React's streaming
    // scripts, React Router's hydration data and the <Scripts>/<ScrollRestoration> of the root.
    const nonce = loadContext?.cspNonce;
    const app = (
      <CspNonce.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </CspNonce.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      // A <Suspense> boundary whose content is ready when the shell is sent goes out in place, as
      // plain HTML, however far down the page it is. (React otherwise moves ready content past
      // ~12.5 KB of page into a hidden <div> that a script puts in place: browsers without
      // JavaScript and crawlers that do not run it would lose it — the age gate, a kit's options;
      // components/ui/SplitComponent.tsx.) Boundaries still waiting for data stream as before.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      [readyOption]() {
        shellRendered = true;
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        // What the first paint needs is asked for with the answer's headers (lib/early-preloads.ts).
        responseHeaders.append('Link', stylesheetLink(stylesheet));
        const init = { headers: responseHeaders, status: responseStatusCode };
        const onEnd = () => {
          clearTimeout(timeoutId);
          timeoutId = undefined;
        };
        const preloadImages = (page: Buffer, headers: Headers) => {
          for (const link of imagePreloadLinks(page)) headers.append('Link', link);
        };
        resolve(renderedResponse((sink) => pipe(sink as unknown as NodeJS.WritableStream), init, onEnd, preloadImages));
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors before the shell is ready reject above and are logged by React Router.
        if (shellRendered) console.error(error);
      },
    });
  });
}
