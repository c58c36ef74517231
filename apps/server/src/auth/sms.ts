/**
 * Pluggable SMS delivery of login codes. Not Twilio: its acceptable-use policy forbids cannabis
 * traffic (research §5), so `http` posts `{to, text}` JSON to any gateway that takes it.
 * Numbers arrive in E.164 (users/phone.ts).
 */
import { maskPhone, toE164 } from '../users/phone.ts';
/** What a gateway answered for an accepted message: its own id for it, when it gives one. */
export interface ProviderAnswer {
  id?: string;
}

/**
 * The gateway's id in an accepted answer: JSON `{"id": "…"}` (a string or a number, at most 200
 * characters); anything else (an empty body, text, no id) is an accepted message without an id.
 */
export async function providerAnswer(res: Response): Promise<ProviderAnswer> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as unknown;
    const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
    if ((typeof id === 'string' && id.trim() && id.length <= 200) || (typeof id === 'number' && Number.isSafeInteger(id))) return { id: String(id).trim() };
  } catch {
    // not JSON: accepted without an id
  }
  return {};
}

export interface SmsProvider {
  /** `outbox` | `http`: shown per message in the console. */
  readonly name?: string;
  /**
   * True when the gateway calls the delivery-status route back (SMS_RECEIPTS): a message it took
   * with an id then waits for a receipt, and falls back to e-mail without one (notifications/receipts.ts).
   */
  readonly receipts?: boolean;
  send(to: string, text: string, code: string): Promise<void>;
  /** A plain message (order updates, notifications/sender.ts); no code in it. */
  sendText?(to: string, text: string): Promise<ProviderAnswer | void>;
  /** The last code sent to a phone, for the outbox only (demo mode shows it; tests read it). */
  lastCode?(to: string): string | undefined;
}

/**
 * Nothing leaves the process. In demo mode the code is logged (the demo shows it anyway); outside
 * demo mode a code is never written to the log — anyone reading logs could log in as anyone — only
 * that an SMS to a masked number was not delivered (registerAccountRoutes warns once at start).
 */
export class OutboxSms implements SmsProvider {
  readonly name = 'outbox';
  /** Nothing leaves the process: there is never a receipt, so never a fallback. */
  readonly receipts = false;
  private readonly last = new Map<string, string>();
  private readonly texts: { to: string; text: string }[] = [];
  constructor(
    private readonly log?: (msg: string) => void,
    private readonly demoMode = false,
  ) {}
  async send(to: string, _text: string, code: string): Promise<void> {
    this.last.set(to, code);
    this.log?.(this.demoMode ? `SMS outbox: login code for ${to} is ${code}` : `SMS outbox: a code for ${maskPhone(to)} was not delivered (SMS_PROVIDER=outbox)`);
  }
  /** Order messages are no secret: logged whole in demo mode; elsewhere only that one was not delivered. */
  async sendText(to: string, text: string): Promise<void> {
    this.texts.push({ to, text });
    if (this.texts.length > 50) this.texts.shift();
    this.log?.(
      this.demoMode
        ? `SMS outbox: to ${to}: ${text}`
        : `SMS outbox: a message for ${maskPhone(to)} was not delivered (SMS_PROVIDER=outbox)`,
    );
  }
  /** The last plain messages (at most 50), oldest first. */
  get sentTexts(): readonly { to: string; text: string }[] {
    return [...this.texts];
  }
  /** Numbers are kept in E.164; any spelling of one finds its code. */
  lastCode(to: string): string | undefined {
    return this.last.get(to) ?? this.last.get(toE164(to) ?? to);
  }
}

export class HttpSms implements SmsProvider {
  readonly name = 'http';
  constructor(
    private readonly url: string,
    readonly receipts = false,
  ) {}
  async sendText(to: string, text: string): Promise<ProviderAnswer> {
    return this.post(to, text);
  }
  async send(to: string, text: string): Promise<void> {
    await this.post(to, text);
  }
  private async post(to: string, text: string): Promise<ProviderAnswer> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error(`SMS gateway answered ${res.status}`);
    }
    return providerAnswer(res);
  }
}
