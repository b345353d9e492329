import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key of a client for per-address limits and the fair lines (decision 135): an IPv4 address as it is, an
 * IPv6 address by its /64 — one subscriber, one home or one school network gets a whole /64 and can pick any
 * address in it, so counting per IPv6 address would give an attacker 2^64 fresh counters. An IPv4-mapped IPv6
 * address (`::ffff:a.b.c.d`, what a dual-stack socket reports for an IPv4 client) is that IPv4 address.
 * Anything else (a test's made-up value, an empty string) is kept as it is.
 */
export function clientKeyOf(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = expandIpv6(address);
  // ::ffff:0:0/96: the last 32 bits are the IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups). */
function expandIpv6(address: string): number[] {
  // A zone (fe80::1%eth0) names an interface, not an address.
  let text = address.split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  if (tail === undefined) return left;
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
