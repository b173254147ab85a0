/**
 * The SSRF guard's address rules (CONTRACT §7): loopback, private (RFC 1918), link-local,
 * unique-local, CGNAT (RFC 6598), unspecified — plus multicast, broadcast and the IPv4 "this
 * network" block, which no webhook receiver can live on either. IPv4-mapped and IPv4-compatible
 * IPv6 addresses are judged by the IPv4 address they carry. Decimal and octal IPv4 spellings
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
  ['ff00::', 8], // multicast
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** True when webhooks may not be sent to this literal address. Anything that is not an address is refused. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return refused.check(bare, 'ipv4');
  if (family !== 6) return true;
  const embedded = embeddedIpv4(bare);
  return embedded ? refused.check(embedded, 'ipv4') : refused.check(bare, 'ipv6');
}

/** The IPv4 address inside `::ffff:a.b.c.d` (mapped) or `::a.b.c.d` (compatible, deprecated), in any spelling. */
function embeddedIpv4(address: string): string | undefined {
  // The WHATWG serialisation is canonical: zeros compressed, the IPv4 part in hexadecimal.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const match = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return undefined;
  const [high, low] = [parseInt(match[1]!, 16), parseInt(match[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
