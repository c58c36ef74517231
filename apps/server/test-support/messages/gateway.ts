/**
 * A loopback SMS and mail gateway for tests (issue 30): plays a provider that takes messages and
 * then drops, delays, fails or delivers them, reporting back like a real one.
 *  - POST /sms `{to, text}` and POST /mail `{to, subject, text}` (what HttpSms and HttpMailer send)
 *    answer 200 `{id}` with an id of its own, or 500 for a recipient whose fate is `reject`;
 *  - after `delayMs` it calls the app's status route (`/api/messages/status/sms|email`) with the
 *    shared secret as a Bearer: `delivered` or `failed`; `drop` never reports. `burst` sends the
 *    same report that many times at once (a provider retrying its callback).
 * Fates are set per recipient (E.164 phone or e-mail address), else `defaultFate`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fate = 'deliver' | 'fail' | 'drop' | 'reject';

export interface FateRule {
  fate: Fate;
  /** Wait before the report (default 0). */
  delayMs?: number;
  /** Send the report this many times in parallel (default 1). */
  burst?: number;
}

export interface Received {
  channel: 'sms' | 'email';
  id: string;
  to: string;
  text: string;
  subject?: string;
}

export interface Report {
  channel: 'sms' | 'email';
  id: string;
  status: 'delivered' | 'failed';
  /** The app's answer to the callback. */
  code: number;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => resolve(raw));
    req.on('error', reject);
  });

export class LoopbackGateway {
  readonly received: Received[] = [];
  readonly reports: Report[] = [];
  readonly fates = new Map<string, FateRule>();
  defaultFate: FateRule = { fate: 'deliver' };
  /** The app's base URL (`http://127.0.0.1:port`), where reports go. */
  statusBaseUrl: string | undefined;
  private server: Server | undefined;
  private seq = 0;
  private pending = new Set<Promise<void>>();
  url = '';

  constructor(private readonly secret: string) {}

  get smsUrl(): string {
    return `${this.url}/sms`;
  }
  get mailUrl(): string {
    return `${this.url}/mail`;
  }

  fateOf(to: string): FateRule {
    return this.fates.get(to) ?? this.fates.get(to.toLowerCase()) ?? this.defaultFate;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      void readBody(req).then((raw) => {
        const channel = req.url === '/sms' ? 'sms' : req.url === '/mail' ? 'email' : null;
        if (req.method !== 'POST' || !channel) return void res.writeHead(404).end();
        let body: { to?: string; text?: string; subject?: string };
        try {
          body = JSON.parse(raw);
        } catch {
          return void res.writeHead(400).end();
        }
        const to = String(body.to ?? '');
        const rule = this.fateOf(to);
        if (rule.fate === 'reject') return void res.writeHead(500).end('gateway down');
        const id = `gw-${++this.seq}`;
        this.received.push({ channel, id, to, text: String(body.text ?? ''), ...(body.subject ? { subject: body.subject } : {}) });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
        if (rule.fate !== 'drop') this.track(this.report(channel, id, rule));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async report(channel: 'sms' | 'email', id: string, rule: FateRule): Promise<void> {
    if (rule.delayMs) await new Promise((r) => setTimeout(r, rule.delayMs));
    if (!this.statusBaseUrl) return;
    const status = rule.fate === 'fail' ? 'failed' : 'delivered';
    const one = async () => {
      const res = await fetch(`${this.statusBaseUrl}/api/messages/status/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.secret}` },
        body: JSON.stringify({ id, status, ...(status === 'failed' ? { error: 'Carrier rejected the message (30007)' } : {}) }),
      }).catch(() => null);
      await res?.body?.cancel().catch(() => undefined);
      this.reports.push({ channel, id, status, code: res?.status ?? 0 });
    };
    await Promise.all(Array.from({ length: rule.burst ?? 1 }, one));
  }

  /** Resolves when every report started so far has been answered. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  async stop(): Promise<void> {
    await this.settled();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
