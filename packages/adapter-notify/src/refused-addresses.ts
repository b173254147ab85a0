/**
 * The SSRF guard's address rules (CONTRACT §7): loopback, private (RFC 1918), link-local,
 * unique-local, CGNAT (RFC 6598), unspecified — plus multicast, broadcast and the IPv4 "this
 * network" block, which no webhook receiver can live on either, the deprecated site-local
 * `fec0::/10`, and the other blocks IANA's special-purpose registries mark as not globally
 * reachable but those kept for documentation (benchmarking, local-use NAT64, Teredo and the
 * like). IPv6 addresses that carry an IPv4 address (mapped, compatible, translated, NAT64, 6to4)
 * are judged by the IPv4 address they carry (decision 0782). Decimal and octal IPv4 spellings
 * (`2130706433`, `0177.0.0.1`) never reach here: the WHATWG URL parser turns them into dotted
 * decimal, and a resolver answers with canonical addresses.
 */
import { BlockList, isIP } from 'node:net';

const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  // IANA special-purpose blocks that are not globally reachable: no public receiver lives there,
  // and a network may route them inside (a proxy's fake-IP range is often 198.18/15). The
  // documentation blocks (192.0.2/24, 198.51.100/24, 203.0.113/24) are left to examples: no
  // network is given them, and the interface description's own examples use them.
  ['192.0.0.0', 24], // IETF protocol assignments
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated by RFC 3879, still routed inside sites)
  ['ff00::', 8], // multicast
  // IANA special-purpose blocks that are not globally reachable, as the IPv4 ones above.
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translated inside the operator's network
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: a client's tunnel, its IPv4 addresses obfuscated
  ['2001:2::', 48], // benchmarking
  ['5f00::', 16], // segment routing (SRv6) identifiers
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv6 forms that carry an IPv4 address: the groups before it, and the group it starts at.
 * A connection to one reaches (or is translated to) that IPv4 address, so it is judged by it.
 */
const EMBEDDINGS: ReadonlyArray<{ readonly prefix: readonly number[]; readonly at: number }> = [
  { prefix: [0, 0, 0, 0, 0, 0xffff], at: 6 }, // mapped ::ffff:0:0/96
  { prefix: [0, 0, 0, 0, 0, 0], at: 6 }, // compatible ::/96 (deprecated; `::` and `::1` carry 0.0.0.x)
  { prefix: [0, 0, 0, 0, 0xffff, 0], at: 6 }, // translated ::ffff:0:0:0/96 (SIIT, RFC 2765)
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], at: 6 }, // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052)
  { prefix: [0x2002], at: 1 }, // 6to4 2002::/16 (RFC 3056): the IPv4 address is bits 16-47
];

/** True when webhooks may not be sent to this literal address. Anything that is not an address is refused. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return refused.check(bare, 'ipv4');
  if (family !== 6) return true;
  const groups = groupsOf(bare);
  if (!groups) return true;
  const embedded = embeddedIpv4(groups);
  return embedded ? refused.check(embedded, 'ipv4') : refused.check(bare, 'ipv6');
}

/** The IPv4 address an IPv6 address carries, in dotted decimal, if it is of a form that carries one. */
function embeddedIpv4(groups: readonly number[]): string | undefined {
  const form = EMBEDDINGS.find(({ prefix }) => prefix.every((group, index) => groups[index] === group));
  if (!form) return undefined;
  const [high, low] = [groups[form.at]!, groups[form.at + 1]!];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The eight 16-bit groups of an IPv6 address in any spelling (the WHATWG serialisation is
 * canonical: zeros compressed, an IPv4 part in hexadecimal); undefined when it does not parse
 * as a URL host (a zone id such as `fe80::1%eth0`).
 */
function groupsOf(address: string): number[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const high = parse(head);
  if (tail === undefined) return high;
  const low = parse(tail);
  return [...high, ...Array<number>(8 - high.length - low.length).fill(0), ...low];
}
