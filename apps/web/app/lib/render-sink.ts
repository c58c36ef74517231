import { EventEmitter } from 'node:events';

/**
 * Set on a Response whose whole body was rendered before it was returned (the usual case): the
 * server (apps/server/src/ssr/mount.ts, same `Symbol.for` key) sends these bytes in one write
 * instead of reading the body stream. Same bytes either way.
 */
export const RENDERED_BODY = Symbol.for('verdant.ssr.renderedBody');

type Chunk = Uint8Array | string;
const toBytes = (chunk: Chunk): Uint8Array => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

/**
 * Where React writes the page (it needs write/end/destroy and drain/error/close events). Until
 * `stream()` is called it keeps the chunks in memory; `bytes()` joins them once React has ended.
 *
 * Why not a PassThrough turned into a web stream: React writes a page in ~2 KB pieces, each of
 * which then went through a Node stream, a web ReadableStream, `Readable.fromWeb` and a socket
 * write (70 of them for a 140 KB home page; ~8 % of the uncached render profile's busy time,
 * socket writes and stream plumbing). In steady state nothing suspends for long: every boundary, including React
 * Router's turbo-stream of the loader data, is done within the same turn of the event loop, so
 * the page is complete before we answer and goes out as one buffer. If something still waits
 * (deferred data, a lazy component loading for the first time), the page streams as before: what
 * is ready first, the rest as React writes it, with backpressure.
 */
export class RenderSink extends EventEmitter {
  private chunks: Chunk[] = [];
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private waitingForDrain = false;
  private cancelled = false;
  ended = false;
  failed: unknown;
  constructor(private readonly onEnd: () => void) {
    super();
  }
  write(chunk: Chunk): boolean {
    if (!this.controller) {
      this.chunks.push(chunk);
      return true;
    }
    // The reader went away (cancel): React is told by 'close' and aborts; should it write again, it is dropped.
    if (this.cancelled) return true;
    this.controller.enqueue(toBytes(chunk));
    const room = (this.controller.desiredSize ?? 1) > 0;
    if (!room) this.waitingForDrain = true;
    return room;
  }
  end(): void {
    this.ended = true;
    this.onEnd();
    if (!this.cancelled) this.controller?.close();
  }
  destroy(error?: unknown): void {
    this.failed = error ?? new Error('The render was destroyed.');
    this.onEnd();
    if (!this.cancelled) this.controller?.error(this.failed);
  }
  /**
   * The whole page, once React has ended it: one buffer, strings (the larger pieces React hands
   * over unencoded, such as cached product cards) encoded straight into it rather than each into a
   * buffer of its own first.
   */
  bytes(): Buffer {
    let length = 0;
    for (const chunk of this.chunks) length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    for (const chunk of this.chunks) {
      if (typeof chunk === 'string') at += out.write(chunk, at);
      else {
        out.set(chunk, at);
        at += chunk.byteLength;
      }
    }
    return at === length ? out : out.subarray(0, at);
  }
  /** From now on chunks go to a web stream: the ones written so far first. */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
        for (const chunk of this.chunks) controller.enqueue(toBytes(chunk));
        this.chunks = [];
        if (this.failed !== undefined) controller.error(this.failed);
        else if (this.ended) controller.close();
      },
      pull: () => {
        if (!this.waitingForDrain) return;
        this.waitingForDrain = false;
        this.emit('drain');
      },
      cancel: () => {
        // What a destroyed PassThrough did: React stops rendering for a reader that went away.
        this.cancelled = true;
        this.emit('close');
      },
    });
  }
}

/**
 * The answer for a page rendered to the end. Its bytes are RENDERED_BODY, which the server sends
 * as they are; a body stream is made from them only if something reads the body (the output cache
 * when it keeps the page, tests). A Response built on the bytes would copy the whole page into a
 * stream on every answer (undici's `extractBody`; ~2 % of an uncached category render, issue 15).
 */
class RenderedPage extends Response {
  readonly [RENDERED_BODY]: Buffer;
  #readable: Response | undefined;
  constructor(bytes: Buffer, init: ResponseInit) {
    super(null, init);
    this[RENDERED_BODY] = bytes;
  }
  /** The same answer with a real body, made once. */
  readable(): Response {
    return (this.#readable ??= new Response(this[RENDERED_BODY] as Uint8Array<ArrayBuffer>, {
      status: this.status,
      headers: this.headers,
    }));
  }
  override arrayBuffer() {
    return this.readable().arrayBuffer();
  }
  override blob() {
    return this.readable().blob();
  }
  override formData() {
    return this.readable().formData();
  }
  override json() {
    return this.readable().json();
  }
  override text() {
    return this.readable().text();
  }
  override clone(): Response {
    return this.readable().clone();
  }
  static {
    // `body` and `bodyUsed` are properties of Response in TypeScript's view: given as accessors here.
    Object.defineProperties(RenderedPage.prototype, {
      body: {
        get(this: RenderedPage) {
          return this.readable().body;
        },
      },
      bodyUsed: {
        get(this: RenderedPage) {
          return this.#readable?.bodyUsed ?? false;
        },
      },
      bytes: {
        value(this: RenderedPage) {
          return (this.readable() as Response & { bytes(): Promise<Uint8Array> }).bytes();
        },
      },
    });
  }
}

/**
 * The answer for a render whose shell is ready: React's `pipe` goes to a RenderSink, and after
 * this turn of the event loop (`setImmediate`: whatever completes in microtasks is written by
 * then) the page is either complete — one buffer, marked with RENDERED_BODY — or streams on.
 * `init` is read now (a later error must not change the status of an answer already decided).
 */
export function renderedResponse(
  pipe: (destination: RenderSink) => unknown,
  init: { headers: Headers; status: number },
  onEnd: () => void,
  /** A page rendered to the end: add headers that depend on its bytes (early-preloads.ts). */
  beforeSend?: (page: Buffer, headers: Headers) => void,
): Promise<Response> {
  const { headers, status } = init;
  const sink = new RenderSink(onEnd);
  pipe(sink);
  return new Promise((resolve) =>
    setImmediate(() => {
      if (sink.ended) {
        const bytes = sink.bytes();
        beforeSend?.(bytes, headers);
        resolve(new RenderedPage(bytes, { headers, status }));
      } else {
        resolve(new Response(sink.stream(), { headers, status }));
      }
    }),
  );
}
