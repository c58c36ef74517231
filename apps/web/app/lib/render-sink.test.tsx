import { PassThrough } from 'node:stream';
import { Suspense, use } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RENDERED_BODY, renderedResponse } from './render-sink.ts';

/** What entry.server.tsx did before: React piped into a PassThrough, read to the end. */
function viaPassThrough(node: React.ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(node, {
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onShellReady() {
        const body = new PassThrough();
        const parts: Buffer[] = [];
        body.on('data', (chunk: Buffer) => parts.push(chunk));
        body.on('end', () => resolve(Buffer.concat(parts).toString()));
        pipe(body);
      },
      onShellError: reject,
    });
  });
}

function viaSink(node: React.ReactNode, status = 200, onError?: (error: unknown) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(node, {
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onError,
      onShellReady() {
        resolve(
          renderedResponse(
            (sink) => pipe(sink as unknown as NodeJS.WritableStream),
            { headers: new Headers(), status },
            () => {},
          ),
        );
      },
      onShellError: reject,
    });
  });
}

/**
 * ~200 KB of markup with a multi-byte character, so React writes it in many pieces; and inner HTML
 * strings longer than React's 4 KB buffer / 3 (what cached product cards are), which React hands
 * to the sink as strings, unencoded.
 */
function BigPage() {
  const innerHtml = (i: number) => `<p class="card-brand">Sierra Sun · ${i}</p>${'<span>3.5 g — Indica</span>'.repeat(60)}`;
  return (
    <main>
      {Array.from({ length: 2000 }, (_, i) => (
        <p key={i} className="card-body text-stone-700">
          Product {i} · 3.5 g — Indica
        </p>
      ))}
      {Array.from({ length: 20 }, (_, i) => (
        <article key={i} className="card" dangerouslySetInnerHTML={{ __html: innerHtml(i) }} />
      ))}
    </main>
  );
}

function Later({ promise }: { promise: Promise<string> }) {
  return <p>{use(promise)}</p>;
}

describe('renderedResponse (entry.server.tsx)', () => {
  it('answers a page rendered to the end as one buffer, byte for byte what the stream gave', async () => {
    const response = await viaSink(<BigPage />, 200);
    const bytes = (response as Response & { [RENDERED_BODY]?: Buffer })[RENDERED_BODY];
    expect(bytes).toBeInstanceOf(Buffer);
    expect(bytes!.length).toBeGreaterThan(100_000);
    const expected = await viaPassThrough(<BigPage />);
    expect(bytes!.toString()).toBe(expected);
    // The Response's own body is the same bytes (the output cache reads it that way), made only when read.
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe(expected);
    expect(response.bodyUsed).toBe(true);
    expect(response.status).toBe(200);
    const again = await viaSink(<BigPage />, 404);
    expect(again.status).toBe(404);
    expect(Buffer.from(await again.clone().arrayBuffer()).toString()).toBe(expected);
    expect(Buffer.from(await (again as Response & { bytes(): Promise<Uint8Array> }).bytes()).toString()).toBe(expected);
    const third = await viaSink(<BigPage />, 200);
    let streamed = '';
    for await (const chunk of third.body as unknown as AsyncIterable<Uint8Array>) streamed += Buffer.from(chunk).toString();
    expect(streamed).toBe(expected);
  });

  it('streams a page still waiting for data: the shell first, the rest when it comes, same bytes as before', async () => {
    const tree = (promise: Promise<string>) => (
      <div>
        <h1>Menu</h1>
        <Suspense fallback={<p>Loading…</p>}>
          <Later promise={promise} />
        </Suspense>
        <BigPage />
      </div>
    );
    let release!: (value: string) => void;
    const response = await viaSink(tree(new Promise<string>((r) => (release = r))));
    expect((response as Response & { [RENDERED_BODY]?: Buffer })[RENDERED_BODY]).toBeUndefined();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Everything up to the fallback is readable before the data exists.
    while (!text.includes('Loading…')) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += decoder.decode(value, { stream: true });
    }
    expect(text).not.toContain('Ready now');
    release('Ready now');
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toContain('Ready now');
    const expected = await viaPassThrough(tree(new Promise<string>((r) => setTimeout(() => r('Ready now'), 20))));
    expect(text).toBe(expected);
  });

  it('stops rendering when the reader goes away (a shopper who left)', async () => {
    const errors: unknown[] = [];
    let release!: (value: string) => void;
    const response = await viaSink(
      <div>
        <Suspense fallback={<p>Loading…</p>}>
          <Later promise={new Promise<string>((r) => (release = r))} />
        </Suspense>
        <BigPage />
      </div>,
      200,
      (error) => {
        errors.push(error);
      },
    );
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    release('Too late');
    await new Promise((r) => setTimeout(r, 50));
    // React aborted the render for the closed destination; nothing else failed.
    expect(errors.map((e) => String(e))).toEqual([expect.stringContaining('closed early')]);
  });
});
