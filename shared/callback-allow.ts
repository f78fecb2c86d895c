import { isIP, isIPv4 } from 'node:net';

/**
 * CALLBACK_ALLOW, parsed: the hosts (by name) and networks (CIDR) callbacks may go to
 * (docs/callbacks.md "Where callbacks may go"). Only the syntax lives here; the rule that uses
 * it is worker/callbacks/destination-policy.ts.
 */
export interface CallbackAllow {
  /** Host names, lower case, without a trailing dot. */
  hosts: string[];
  /** Networks; a bare address is a /32 (/128). */
  cidrs: Array<{ address: string; prefix: number; family: 'ipv4' | 'ipv6' }>;
}

const HOST_RE = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
// Dotted decimal only: "010.0.0.0" (octal in a URL) would mean another network than it reads.
const DOTTED_RE = /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/;

/** `tms.corp.example,10.20.0.0/16,fd00::/8,203.0.113.7`; throws an Error naming the bad entry. */
export function parseCallbackAllow(text: string): CallbackAllow {
  const out: CallbackAllow = { hosts: [], cidrs: [] };
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const slash = entry.indexOf('/');
    const addr = (slash < 0 ? entry : entry.slice(0, slash)).replace(/^\[(.*)\]$/, '$1');
    const family = isIP(addr);
    if (family === 0) {
      if (slash >= 0) throw new Error(`"${raw.trim()}" is not a CIDR (e.g. 10.20.0.0/16)`);
      const host = entry.replace(/\.$/, '');
      if (!HOST_RE.test(host)) throw new Error(`"${raw.trim()}" is neither a host name nor an IP address or CIDR`);
      out.hosts.push(host);
      continue;
    }
    if (isIPv4(addr) && !DOTTED_RE.test(addr)) throw new Error(`"${raw.trim()}": write IPv4 addresses in plain dotted decimal`);
    const max = family === 4 ? 32 : 128;
    const prefixText = slash < 0 ? String(max) : entry.slice(slash + 1);
    const prefix = Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText) || prefix > max) throw new Error(`"${raw.trim()}": the prefix must be 0–${max}`);
    out.cidrs.push({ address: addr, prefix, family: family === 4 ? 'ipv4' : 'ipv6' });
  }
  if (out.hosts.length === 0 && out.cidrs.length === 0) throw new Error('lists no host or network');
  return out;
}
