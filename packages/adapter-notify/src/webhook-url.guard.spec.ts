import { expect } from 'chai';
import { isRefusedAddress } from './refused-addresses.js';
import { AddressWebhookUrlGuard, type HostResolver } from './webhook-url.guard.js';

/** A resolver over a fixed table, as DNS would answer; an unknown name fails like NXDOMAIN. */
const table: Record<string, string[]> = {
  'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example': ['10.0.0.5'],
  'mixed.example': ['93.184.215.14', '192.168.1.10'],
  'metadata.example': ['169.254.169.254'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'ula.example': ['fd00::1'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'cgnat.example': ['100.100.100.100'],
  'empty.example': [],
};
const resolve: HostResolver = async (hostname) => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

describe('AddressWebhookUrlGuard', () => {
  const guard = new AddressWebhookUrlGuard({ allowPrivateNetworks: false, resolve });

  describe('when the host is a literal address', () => {
    it('refuses loopback, private, link-local, unique-local, CGNAT and unspecified, in every spelling', async () => {
      for (const url of [
        'http://127.0.0.1/', 'http://127.9.9.9/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f000001/', 'http://017700000001/',
        'http://10.0.0.1/', 'http://167772161/', 'http://172.16.0.1/', 'http://172.31.255.254/', 'http://192.168.0.1/',
        'http://169.254.169.254/', 'http://100.64.0.1/', 'http://100.127.255.254/', 'http://0.0.0.0/', 'http://0/',
        'http://[::1]/', 'http://[::]/', 'http://[fe80::1]/', 'http://[febf::1]/', 'http://[fc00::1]/', 'http://[fdff::1]/',
        'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[0:0:0:0:0:ffff:10.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/',
      ]) {
        expect(await guard.isAllowed(url), url).to.equal(false);
      }
    });

    it('refuses site-local, and the translated, NAT64 and 6to4 forms of a refused IPv4 address, in every spelling', async () => {
      for (const url of [
        'http://[fec0::1]/', 'http://[feff:ffff::1]/',
        'http://[::ffff:0:7f00:1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[0:0:0:0:ffff:0:a00:1]/',
        'http://[64:ff9b::7f00:1]/', 'http://[64:ff9b::192.168.0.1]/', 'http://[64:ff9b:0:0:0:0:a9fe:a9fe]/',
        'http://[2002:7f00:1::]/', 'http://[2002:a00:1:ffff::1]/', 'http://[2002:c0a8:0101::]/', 'http://[2002::]/',
      ]) {
        expect(await guard.isAllowed(url), url).to.equal(false);
      }
    });

    it('refuses the special-purpose blocks that are not globally reachable: benchmarking, local-use NAT64, Teredo and the like', async () => {
      for (const url of [
        'http://192.0.0.8/', 'http://198.18.0.1/', 'http://198.19.255.254/',
        'http://[64:ff9b:1::7f00:1]/', 'http://[64:ff9b:1:ffff::808:808]/', 'http://[100::1]/', 'http://[2001::1]/', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
        'http://[2001:2::1]/', 'http://[5f00::1]/',
      ]) {
        expect(await guard.isAllowed(url), url).to.equal(false);
      }
    });

    it('allows public addresses next to the refused ranges', async () => {
      for (const url of [
        'http://93.184.215.14/', 'http://172.32.0.1/', 'http://100.128.0.1/', 'http://11.0.0.1/', 'https://[2606:4700::1111]/', 'http://[fe7f::1]/',
        // IPv6 forms carrying a public IPv4 address, and the same IPv4 address outside those forms' prefixes
        'http://[::ffff:808:808]/', 'http://[::ffff:0:808:808]/', 'http://[64:ff9b::808:808]/', 'http://[2002:808:808::1]/',
        'http://[64:ff9c::7f00:1]/', 'http://[2003:7f00:1::]/',
        // just outside the special-purpose blocks
        'http://192.0.1.1/', 'http://198.17.255.254/', 'http://198.20.0.1/', 'http://[64:ff9b:2::1]/', 'http://[100:0:0:1::1]/',
        'http://[2001:1::1]/', 'http://[2001:4860:4860::8888]/', 'http://[2001:3::1]/', 'http://[5f01::1]/',
        // the documentation blocks, which examples use (the interface description's among them)
        'http://192.0.2.1/', 'http://198.51.100.7/', 'http://203.0.113.10/', 'http://[2001:db8::1]/', 'http://[3fff::1]/',
      ]) {
        expect(await guard.isAllowed(url), url).to.equal(true);
      }
    });
  });

  describe('when the host is a name', () => {
    it('allows it only when every address it resolves to is public', async () => {
      expect(await guard.isAllowed('https://public.example/hook')).to.equal(true);
      for (const host of ['internal.example', 'mixed.example', 'metadata.example', 'mapped.example', 'ula.example', 'nat64.example', 'cgnat.example', 'unknown.example']) {
        expect(await guard.isAllowed(`https://${host}/hook`), host).to.equal(false);
      }
    });

    it('refuses a name that resolves to no address at all, as one that does not resolve (nothing could be checked)', async () => {
      expect(await guard.isAllowed('https://empty.example/hook')).to.equal(false);
      expect(await guard.isAllowed('https://unknown.example/hook')).to.equal(false);
    });

    it('resolves with the system resolver by default: localhost is refused', async () => {
      expect(await new AddressWebhookUrlGuard({ allowPrivateNetworks: false }).isAllowed('http://localhost:3000/')).to.equal(false);
    });
  });

  it('allows everything with WEBHOOK_ALLOW_PRIVATE_NETWORKS', async () => {
    const open = new AddressWebhookUrlGuard({ allowPrivateNetworks: true, resolve });
    expect(await open.isAllowed('http://127.0.0.1:8080/')).to.equal(true);
    expect(await open.isAllowed('http://internal.example/')).to.equal(true);
  });

  it('judges anything that is not an address as refused', () => {
    expect(isRefusedAddress('not-an-address')).to.equal(true);
  });
});
