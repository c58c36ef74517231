/**
 * Which URLs a store may point a webhook at. http(s) only, no credentials in the URL. In
 * production a URL whose host is (or resolves to) a loopback, private, link-local or otherwise
 * internal address is refused, so a console user cannot make the server call into its own
 * network (SSRF); `WEBHOOK_ALLOW_PRIVATE=1` lifts that for deployments whose receivers live on a
 * private network. Outside production (tests, the demo) loopback receivers are allowed.
 *
 * The check runs when an endpoint is saved and again before every attempt (a DNS name can change
 * what it points at); a name re-pointed between that look-up and the request itself is not caught.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** Whether an IP literal is internal (IPv4-mapped IPv6 is judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return false;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface UrlPolicy {
  /** Refuse internal addresses (production without WEBHOOK_ALLOW_PRIVATE=1). */
  refusePrivate: boolean;
  /** DNS look-up; tests may pass their own resolver. */
  resolve?: (host: string) => Promise<string[]>;
}

export function urlPolicyFromEnv(production: boolean, env: NodeJS.ProcessEnv = process.env): UrlPolicy {
  return { refusePrivate: production && env.WEBHOOK_ALLOW_PRIVATE !== '1' };
}

const defaultResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Null when `raw` may receive webhooks, else the reason in words for the console. */
export async function webhookUrlProblem(raw: string, policy: UrlPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full URL starting with https:// or http://.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Webhook URLs must start with https:// or http://.';
  if (url.username || url.password) return 'Webhook URLs must not contain a user name or password.';
  if (!policy.refusePrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'Webhook URLs must not point at this server or a private network.';
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? defaultResolve)(host);
    } catch {
      return `The host ${host} could not be found.`;
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) return 'Webhook URLs must not point at this server or a private network.';
  return null;
}
