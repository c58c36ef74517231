/**
 * A small Server-Sent Events reader for the tests and the bench (not used by the server): opens a
 * console stream on a connection of its own (node:http, no pooling: close() really closes it),
 * parses its frames as they arrive, and waits for one.
 */
import http from 'node:http';
export interface SseFrame {
  event: string;
  id?: string;
  data: any;
  /** performance.now() when the frame was read. */
  at: number;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  frames: SseFrame[];
  /** Comment lines (": ping") seen so far. */
  comments: string[];
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  /** The first frame (from `from` on) that passes; rejects after `ms`. */
  waitFor(match: (frame: SseFrame) => boolean, ms: number, from?: number): Promise<SseFrame>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, resolve);
    req.on('error', reject);
  });
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  let done = false;
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const frame: { event?: string; id?: string; lines: string[] } = { lines: [] };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments.push(line);
        else if (line.startsWith('event: ')) frame.event = line.slice(7);
        else if (line.startsWith('id: ')) frame.id = line.slice(4);
        else if (line.startsWith('data: ')) frame.lines.push(line.slice(6));
      }
      if (frame.event)
        frames.push({
          event: frame.event,
          id: frame.id,
          data: frame.lines.length ? JSON.parse(frame.lines.join('\n')) : null,
          at: performance.now(),
        });
    }
    notify();
  });
  const ended = new Promise<void>((resolve) => {
    const finish = () => {
      done = true;
      notify();
      resolve();
    };
    res.once('end', finish);
    res.once('close', finish);
    res.once('error', finish);
  });
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    frames,
    comments,
    ended,
    waitFor(match, ms, from = 0) {
      return new Promise<SseFrame>((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (found) return finish(() => resolve(found));
          if (done) finish(() => reject(new Error('the stream ended before the frame arrived')));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no matching frame within ${ms} ms`))), ms);
        const finish = (then: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
    close: () => res.destroy(),
  };
}
