/**
 * Pluggable e-mail delivery (password reset links today). Like the SMS provider (../auth/sms.ts):
 *  - `outbox` (default): nothing leaves the process; each mail is logged and the last N are kept
 *    in memory, so the demo and the tests can read the link;
 *  - `http`: POST `{to, subject, text, html?}` JSON to MAIL_HTTP_URL, for any mail gateway or a
 *    small relay in front of SMTP / a provider API. Many mail providers refuse cannabis traffic in
 *    their terms, which is why no provider SDK is wired in.
 */
import { providerAnswer, type ProviderAnswer } from '../auth/sms.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** `outbox` | `http`: shown per message in the console. */
  readonly name?: string;
  /** True when the gateway calls the delivery-status route back (MAIL_RECEIPTS); see ../auth/sms.ts. */
  readonly receipts?: boolean;
  /** Resolves when the mail is accepted for delivery (with the gateway's id, when it gives one); rejects with a readable error otherwise. */
  send(message: MailMessage): Promise<ProviderAnswer | void>;
}

export const OUTBOX_SIZE = 50;

export class OutboxMailer implements Mailer {
  readonly name = 'outbox';
  readonly receipts = false;
  private readonly kept: MailMessage[] = [];

  constructor(
    private readonly log?: (msg: string) => void,
    private readonly size = OUTBOX_SIZE,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.kept.push({ ...message });
    if (this.kept.length > this.size) this.kept.splice(0, this.kept.length - this.size);
    // The outbox is the demo's and development's mail server: the whole text goes to the log.
    this.log?.(`Mail outbox: to ${message.to}, subject "${message.subject}"\n${message.text}`);
  }

  /** Mails kept, oldest first (a copy). */
  get sent(): readonly MailMessage[] {
    return [...this.kept];
  }

  /** The newest mail to an address (case-insensitive), if any. */
  lastTo(to: string): MailMessage | undefined {
    const wanted = to.toLowerCase();
    for (let i = this.kept.length - 1; i >= 0; i--) if (this.kept[i].to.toLowerCase() === wanted) return this.kept[i];
    return undefined;
  }
}

export class HttpMailer implements Mailer {
  readonly name = 'http';
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 10_000,
    readonly receipts = false,
  ) {}

  async send(message: MailMessage): Promise<ProviderAnswer> {
    const body: MailMessage = { to: message.to, subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) };
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new Error(`Mail gateway could not be reached: ${(error as Error).message}`);
    }
    if (!res.ok) {
      const detail = (await res.text().catch(() => '')).slice(0, 200).trim();
      throw new Error(`Mail gateway answered ${res.status}${detail ? `: ${detail}` : ''}`);
    }
    return providerAnswer(res);
  }
}

export interface MailConfig {
  mailProvider?: 'outbox' | 'http';
  mailHttpUrl?: string;
  mailReceipts?: boolean;
}

/** The mailer the configuration asks for; the outbox logs through `log`. */
export function createMailer(config: MailConfig, log: (msg: string) => void): Mailer {
  if (config.mailProvider === 'http') {
    if (!config.mailHttpUrl) throw new Error('MAIL_HTTP_URL is required when MAIL_PROVIDER=http');
    return new HttpMailer(config.mailHttpUrl, 10_000, config.mailReceipts ?? false);
  }
  return new OutboxMailer(log);
}
