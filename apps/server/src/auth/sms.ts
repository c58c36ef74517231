/**
 * Pluggable SMS delivery of login codes. Not Twilio: its acceptable-use policy forbids cannabis
 * traffic (research §5), so `http` posts `{to, text}` JSON to any gateway that takes it.
 */
export interface SmsProvider {
  send(to: string, text: string, code: string): Promise<void>;
  /** The last code sent to a phone, for the outbox only (demo mode shows it; tests read it). */
  lastCode?(to: string): string | undefined;
}

export class OutboxSms implements SmsProvider {
  private readonly last = new Map<string, string>();
  constructor(private readonly log?: (msg: string) => void) {}
  async send(to: string, _text: string, code: string): Promise<void> {
    this.last.set(to, code);
    this.log?.(`SMS outbox: login code for ${to} is ${code}`);
  }
  lastCode(to: string): string | undefined {
    return this.last.get(to);
  }
}

export class HttpSms implements SmsProvider {
  constructor(private readonly url: string) {}
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
