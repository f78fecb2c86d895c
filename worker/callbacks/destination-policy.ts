import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv6 } from 'node:net';
import type { CallbackAllow } from '../../shared/callback-allow.js';

/**
 * Where callbacks may go (docs/callbacks.md "Where callbacks may go"): the one rule, used at
 * intake (a callback_url outside it is a 400) and at send time, on every address a name
 * resolves to (callback-transport.ts connects only to addresses this allowed).
 *
 * - An address inside a CIDR of CALLBACK_ALLOW is allowed (link-local included: listing it
 *   by CIDR is the only way to reach it).
 * - Link-local (169.254.0.0/16, the cloud metadata address; fe80::/10), unspecified (0.0.0.0/8,
 *   ::, which reach this host), multicast and broadcast are refused otherwise, whatever the name.
 * - A host listed by name in CALLBACK_ALLOW is allowed at whatever else it resolves to.
 * - Without CALLBACK_ALLOW: loopback only, and only while the intake binds loopback (a wide
 *   intake would let anyone on the network aim the worker at its own host's services).
 */

function blockList(nets: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const b = new BlockList();
  for (const [a, p, f] of nets) b.addSubnet(a, p, f);
  return b;
}

const ALWAYS_REFUSED = blockList([
  ['169.254.0.0', 16, 'ipv4'],
  ['0.0.0.0', 8, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['255.255.255.255', 32, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
  ['::', 128, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]);
const LOOPBACK = blockList([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
/** Private, shared (carrier-grade NAT) and unique-local ranges: only to say why in general terms. */
const PRIVATE = blockList([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
]);

/**
 * Why an address is refused, in general terms: what a caller may be told. Never the address a
 * name resolved to, nor the allow list (they map the broker's network for whoever asks); the
 * operator's log has both.
 */
export const REFUSALS = {
  notAnAddress: 'not an IP address',
  linkLocal: 'a link-local, metadata, unspecified or multicast address',
  loopback: 'a loopback address',
  private: 'a private address',
  outside: 'an address outside the allowed callback destinations',
} as const;
export type Refusal = (typeof REFUSALS)[keyof typeof REFUSALS];

/** A callback_url refused at intake: why (for the caller), and the address (the operator's log only). */
export interface UrlRefusal {
  refusal: Refusal;
  /** The URL's host is itself an address (else a name that resolved to `address`). */
  literal: boolean;
  address: string;
}

/** The 16 bytes of an IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Bytes(a: string): number[] {
  let s = a;
  const tail: number[] = [];
  const dot = s.lastIndexOf(':');
  if (s.includes('.')) {
    tail.push(
      ...s
        .slice(dot + 1)
        .split('.')
        .map(Number),
    );
    s = s.slice(0, dot + 1) + '0:0';
  }
  const [head, rest] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const r = rest ? rest.split(':') : [];
  const groups = rest === undefined ? h : [...h, ...Array<string>(8 - h.length - r.length).fill('0'), ...r];
  const bytes = groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * An address as the policy compares it: brackets and zone dropped; IPv4-mapped (::ffff:a.b.c.d)
 * and IPv4-compatible (::a.b.c.d) IPv6 as the IPv4 address they reach. Undefined: not an IP
 * address. (Decimal, hex and octal IPv4 forms are normalised by the URL parser before this.)
 */
export function normalizeAddress(raw: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const a = raw
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (isIP(a) === 4) return { address: a, family: 'ipv4' };
  if (!isIPv6(a)) return undefined;
  const b = ipv6Bytes(a);
  const zeros = (n: number) => b.slice(0, n).every((x) => x === 0);
  const mapped = zeros(10) && b[10] === 0xff && b[11] === 0xff;
  const v4 = b.slice(12).join('.');
  // :: and ::1 are themselves, not IPv4-compatible forms of 0.0.0.0 and 0.0.0.1.
  const compatible = zeros(12) && v4 !== '0.0.0.0' && v4 !== '0.0.0.1';
  if (mapped || compatible) return { address: v4, family: 'ipv4' };
  return { address: a, family: 'ipv6' };
}

/** A binding (INTAKE_HOST) reachable only from this host. */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const n = normalizeAddress(host);
  return n !== undefined && LOOPBACK.check(n.address, n.family);
}

export class DestinationPolicy {
  readonly #hosts: ReadonlySet<string>;
  readonly #listed: BlockList;
  readonly #loopbackByDefault: boolean;
  /** For log lines and messages. */
  readonly summary: string;
  /** checkUrl's recent verdicts by host name. */
  readonly #verdicts = new Map<string, { refusal: UrlRefusal | undefined; until: number }>();

  constructor(o: { allow: CallbackAllow | undefined; intakeHost: string }) {
    this.#hosts = new Set(o.allow?.hosts ?? []);
    this.#listed = blockList((o.allow?.cidrs ?? []).map((c) => [c.address, c.prefix, c.family]));
    this.#loopbackByDefault = o.allow === undefined && isLoopbackHost(o.intakeHost);
    this.summary = o.allow
      ? `CALLBACK_ALLOW=${[...o.allow.hosts, ...o.allow.cidrs.map((c) => `${c.address}/${c.prefix}`)].join(',')}`
      : this.#loopbackByDefault
        ? 'loopback only (no CALLBACK_ALLOW; the intake binds loopback)'
        : 'nowhere (no CALLBACK_ALLOW and the intake binds a non-loopback address)';
  }

  /** Is `host` (a URL's hostname, or what a connection resolves) listed by name? */
  #listedByName(host: string): boolean {
    return this.#hosts.has(host.toLowerCase().replace(/\.$/, ''));
  }

  /**
   * Why a connection to `address`, reached through the name `host`, is refused (in general
   * terms, REFUSALS); undefined when allowed.
   */
  refusal(host: string, address: string): Refusal | undefined {
    const n = normalizeAddress(address);
    if (!n) return REFUSALS.notAnAddress;
    if (this.#listed.check(n.address, n.family)) return undefined;
    if (ALWAYS_REFUSED.check(n.address, n.family)) return REFUSALS.linkLocal;
    if (this.#listedByName(host)) return undefined;
    const loopback = LOOPBACK.check(n.address, n.family);
    if (this.#loopbackByDefault && loopback) return undefined;
    if (loopback) return REFUSALS.loopback;
    if (PRIVATE.check(n.address, n.family)) return REFUSALS.private;
    return REFUSALS.outside;
  }

  /**
   * The intake's early check of a callback_url (the send-time check on every resolved address
   * is what holds). A name that does not resolve now is let through: the sender decides when
   * it sends, and a DNS blip should not refuse a tender. A refusal says what the URL's host is
   * or resolves to in general terms (`literal`: the host is an address), never which address.
   */
  async checkUrl(url: URL, resolve?: (host: string) => Promise<string[]>): Promise<UrlRefusal | undefined> {
    const host = url.hostname;
    if (normalizeAddress(host)) {
      const why = this.refusal(host, host);
      return why ? { refusal: why, literal: true, address: host } : undefined;
    }
    // A TMS sends the same host with every tender: its verdict is kept briefly (only this early
    // check; the send-time check resolves on every connection).
    const memo = resolve ? undefined : this.#verdicts.get(host);
    if (memo && memo.until > Date.now()) return memo.refusal;
    let addresses: string[];
    try {
      addresses = await (resolve ?? resolveAll)(host);
    } catch {
      return undefined;
    }
    let refusal: UrlRefusal | undefined;
    for (const a of addresses) {
      const why = this.refusal(host, a);
      if (why) {
        refusal = { refusal: why, literal: false, address: a };
        break;
      }
    }
    if (!resolve) {
      if (this.#verdicts.size >= VERDICTS_KEPT) this.#verdicts.clear();
      this.#verdicts.set(host, { refusal, until: Date.now() + VERDICT_TTL_MS });
    }
    return refusal;
  }
}

const VERDICT_TTL_MS = 30_000;
const VERDICTS_KEPT = 1_000;

const INTAKE_LOOKUP_MS = 2_000;

async function resolveAll(host: string): Promise<string[]> {
  let t: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      dnsLookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => (t = setTimeout(() => reject(new Error('lookup timed out')), INTAKE_LOOKUP_MS))),
    ]);
    return found.map((f) => f.address);
  } finally {
    clearTimeout(t);
  }
}
