/**
 * Pluggable SMS delivery of login codes. Not Twilio: its acceptable-use policy forbids cannabis
 * traffic (research §5), so `http` posts `{to, text}` JSON to any gateway that takes it.
 * Numbers arrive in E.164 (users/phone.ts).
 */
import { maskPhone, toE164 } from '../users/phone.ts';
export interface SmsProvider {
  send(to: string, text: string, code: string): Promise<void>;
  /** A plain message (order updates, notifications/sender.ts); no code in it. */
  sendText?(to: string, text: string): Promise<void>;
  /** The last code sent to a phone, for the outbox only (demo mode shows it; tests read it). */
  lastCode?(to: string): string | undefined;
}

/**
 * Nothing leaves the process. In demo mode the code is logged (the demo shows it anyway); outside
 * demo mode a code is never written to the log — anyone reading logs could log in as anyone — only
 * that an SMS to a masked number was not delivered (registerAccountRoutes warns once at start).
 */
export class OutboxSms implements SmsProvider {
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
  constructor(private readonly url: string) {}
  async sendText(to: string, text: string): Promise<void> {
    return this.send(to, text);
  }
  async send(to: string, text: string): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
  }
}
