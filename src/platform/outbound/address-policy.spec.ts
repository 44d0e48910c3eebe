import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  checkHostName,
  OutboundAddressPolicy,
  parseAllowNets,
} from './address-policy.js';

const none = parseAllowNets([]);
const reasonOf = (address: string, allow = none): string | undefined => {
  const verdict = checkAddress(address, allow);
  return verdict.allowed ? undefined : verdict.reason;
};

describe('checkAddress without an allow-list', () => {
  it('allows public unicast addresses', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
    ]) {
      expect(checkAddress(address, none)).toEqual({ allowed: true });
    }
  });

  it.each([
    ['127.0.0.1', '127.0.0.1 is a loopback address'],
    ['127.255.255.254', '127.255.255.254 is a loopback address'],
    ['::1', '::1 is a loopback address'],
    ['169.254.1.1', '169.254.1.1 is a link-local address'],
    ['fe80::1', 'fe80::1 is a link-local address'],
    ['febf:ffff::1', 'febf:ffff::1 is a link-local address'],
    ['10.0.0.1', '10.0.0.1 is a private address'],
    ['10.255.255.255', '10.255.255.255 is a private address'],
    ['172.16.0.1', '172.16.0.1 is a private address'],
    ['172.31.255.254', '172.31.255.254 is a private address'],
    ['192.168.1.10', '192.168.1.10 is a private address'],
    ['fc00::1', 'fc00::1 is a private (unique local) address'],
    ['fd12:3456::1', 'fd12:3456::1 is a private (unique local) address'],
    ['0.0.0.0', '0.0.0.0 is an unspecified address'],
    ['0.1.2.3', '0.1.2.3 is an unspecified address'],
    ['::', ':: is an unspecified address'],
    ['224.0.0.1', '224.0.0.1 is a multicast address'],
    ['239.255.255.250', '239.255.255.250 is a multicast address'],
    ['ff02::1', 'ff02::1 is a multicast address'],
    ['255.255.255.255', '255.255.255.255 is the broadcast address'],
    ['100.64.0.1', '100.64.0.1 is a carrier-grade NAT address'],
    ['100.127.255.254', '100.127.255.254 is a carrier-grade NAT address'],
    ['192.0.2.1', '192.0.2.1 is a reserved address'],
    ['240.0.0.1', '240.0.0.1 is a reserved address'],
    ['2001:db8::1', '2001:db8::1 is a reserved address'],
    ['fec0::1', 'fec0::1 is a site-local address'],
    [
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2 is a Teredo tunnel address',
    ],
    ['64:ff9b:1::a00:1', '64:ff9b:1::a00:1 is a local-use NAT64 address'],
    ['::7f00:1', '::7f00:1 is not a global unicast address'],
    ['4000::1', '4000::1 is not a global unicast address'],
  ])('refuses %s', (address, reason) => {
    expect(reasonOf(address)).toBe(reason);
  });

  it('leaves addresses just outside the private ranges alone', () => {
    for (const address of [
      '172.15.255.255',
      '172.32.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '11.0.0.0',
      '192.169.0.1',
    ]) {
      expect(checkAddress(address, none)).toEqual({ allowed: true });
    }
  });

  it('judges IPv4-mapped IPv6 addresses by their IPv4 address', () => {
    expect(reasonOf('::ffff:127.0.0.1')).toBe('127.0.0.1 is a loopback address');
    expect(reasonOf('::ffff:a00:1')).toBe('10.0.0.1 is a private address');
    expect(reasonOf('::ffff:169.254.169.254')).toBe('169.254.169.254 is a cloud metadata address');
    expect(checkAddress('::ffff:8.8.8.8', none)).toEqual({ allowed: true });
  });

  it('judges NAT64 and 6to4 addresses by the IPv4 address inside', () => {
    expect(checkAddress('64:ff9b::808:808', none)).toEqual({ allowed: true });
    expect(reasonOf('64:ff9b::7f00:1')).toBe(
      '64:ff9b::7f00:1 embeds 127.0.0.1, a loopback address',
    );
    expect(reasonOf('64:ff9b::a9fe:a9fe')).toBe('64:ff9b::a9fe:a9fe is a cloud metadata address');
    expect(checkAddress('2002:808:808::1', none)).toEqual({ allowed: true });
    expect(reasonOf('2002:c0a8:101::1')).toBe(
      '2002:c0a8:101::1 embeds 192.168.1.1, a private address',
    );
  });

  it.each([
    '169.254.169.254',
    '169.254.170.2',
    '100.100.100.200',
    '168.63.129.16',
    '192.0.0.192',
    'fd00:ec2::254',
    'fd20:ce::254',
  ])('refuses the cloud metadata address %s', (address) => {
    expect(reasonOf(address)).toMatch(/ is a cloud metadata address$/);
  });

  it('refuses what is not an IP address', () => {
    expect(reasonOf('example.com')).toBe('example.com is not an IP address');
    expect(reasonOf('')).toBe(' is not an IP address');
  });
});

describe('checkAddress with an allow-list', () => {
  const allow = parseAllowNets(['127.0.0.1/32', '10.20.0.0/16', 'fd00:1::/64', '192.168.5.5']);

  it('allows addresses inside an allowed net', () => {
    for (const address of [
      '127.0.0.1',
      '10.20.0.1',
      '10.20.255.255',
      'fd00:1::42',
      '192.168.5.5',
      '::ffff:127.0.0.1',
    ]) {
      expect(checkAddress(address, allow)).toEqual({ allowed: true });
    }
  });

  it('still refuses special addresses outside every allowed net', () => {
    expect(reasonOf('127.0.0.2', allow)).toBe('127.0.0.2 is a loopback address');
    expect(reasonOf('10.21.0.1', allow)).toBe('10.21.0.1 is a private address');
    expect(reasonOf('fd00:2::1', allow)).toBe('fd00:2::1 is a private (unique local) address');
    expect(reasonOf('192.168.5.6', allow)).toBe('192.168.5.6 is a private address');
    expect(reasonOf('::1', allow)).toBe('::1 is a loopback address');
  });

  it('never allows a cloud metadata address, even inside an allowed net', () => {
    const wide = parseAllowNets(['169.254.0.0/16', '0.0.0.0/0', 'fd00::/8']);
    expect(reasonOf('169.254.169.254', wide)).toBe('169.254.169.254 is a cloud metadata address');
    expect(reasonOf('fd00:ec2::254', wide)).toBe('fd00:ec2::254 is a cloud metadata address');
    expect(checkAddress('169.254.1.1', wide)).toEqual({ allowed: true });
  });

  it('reads IPv4-mapped IPv6 nets as IPv4 nets', () => {
    const mapped = parseAllowNets(['::ffff:10.0.0.0/104']);
    expect(checkAddress('10.1.2.3', mapped)).toEqual({ allowed: true });
    expect(reasonOf('11.0.0.1', mapped)).toBeUndefined();
    expect(reasonOf('172.16.0.1', mapped)).toBe('172.16.0.1 is a private address');
  });
});

describe('parseAllowNets', () => {
  it('refuses what is not a CIDR or an address, naming it', () => {
    expect(() => parseAllowNets(['10.0.0.0/33'])).toThrow(
      'outbound allow-list: "10.0.0.0/33" is not a CIDR (such as 192.168.10.0/24 or fd00::/8)',
    );
    expect(() => parseAllowNets(['localhost'])).toThrow('"localhost" is not a CIDR');
    expect(() => new OutboundAddressPolicy(['10.0.0.0/8', 'nope/8'])).toThrow('"nope/8"');
  });
});

describe('checkHostName', () => {
  it('refuses cloud metadata host names, whatever their case or trailing dot', () => {
    expect(checkHostName('metadata.google.internal')).toEqual({
      allowed: false,
      reason: 'metadata.google.internal is a cloud metadata endpoint',
    });
    expect(checkHostName('Metadata.Google.Internal.')).toEqual({
      allowed: false,
      reason: 'metadata.google.internal is a cloud metadata endpoint',
    });
    expect(checkHostName('metadata').allowed).toBe(false);
    expect(checkHostName('instance-data.ec2.internal').allowed).toBe(false);
  });

  it('leaves other names to the address rules', () => {
    for (const host of [
      'world.openfoodfacts.org',
      'metadata.example.com',
      'google.internal',
      'localhost',
    ]) {
      expect(checkHostName(host)).toEqual({ allowed: true });
    }
  });
});
