import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/** Whether Trove may connect to an address or host name, and why not. */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: AddressVerdict = { allowed: true };
const refused = (reason: string): AddressVerdict => ({ allowed: false, reason });

/**
 * Cloud instance-metadata endpoints. They are refused even when an allowed net contains them:
 * nothing Trove fetches lives there, and they hand out the host's credentials.
 */
const METADATA_ADDRESSES: readonly Address[] = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle, …
  '169.254.170.2', // AWS ECS task metadata
  '169.254.170.23', // AWS EKS pod identity
  '100.100.100.200', // Alibaba Cloud
  '168.63.129.16', // Azure wire server (a public address)
  '192.0.0.192', // Oracle Cloud (legacy)
  'fd00:ec2::254', // AWS over IPv6
  'fd00:ec2::23', // AWS EKS pod identity over IPv6
  'fd20:ce::254', // GCP over IPv6
].map((text) => ipaddr.parse(text));

/** Host names of metadata endpoints, refused before any DNS lookup. */
const METADATA_HOST_NAMES: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const NAT64_LOCAL_USE = ipaddr.parseCIDR('64:ff9b:1::/48');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  teredo: 'a Teredo tunnel address',
  deprecatedSiteLocal: 'a site-local address',
  rfc6145: 'an IPv4-translated address',
};

const inCidr = (address: Address, [network, bits]: Cidr): boolean =>
  address.kind() === network.kind() && address.match(network, bits);

const sameAddress = (a: Address, b: Address): boolean =>
  inCidr(a, [b, b.kind() === 'ipv4' ? 32 : 128]);

/** `::ffff:a.b.c.d` is a.b.c.d. */
const unwrapMapped = (address: Address): Address =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;

/** The IPv4 address inside a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
function embeddedIPv4(address: Address): ipaddr.IPv4 | undefined {
  if (address.kind() !== 'ipv6') return undefined;
  const bytes = address.toByteArray();
  if (inCidr(address, NAT64_WELL_KNOWN)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (inCidr(address, SIX_TO_FOUR)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/** Why an address is not a public unicast one, or undefined when it is. */
function specialRange(address: Address): string | undefined {
  if (address.kind() === 'ipv4') {
    const range = (address as ipaddr.IPv4).range();
    return range === 'unicast'
      ? undefined
      : (RANGE_WORDS[range] ?? `a special-purpose address (${range})`);
  }
  const v6 = address as ipaddr.IPv6;
  if (inCidr(v6, NAT64_LOCAL_USE)) return 'a local-use NAT64 address';
  // The IPv4 address inside these is checked on its own.
  if (inCidr(v6, NAT64_WELL_KNOWN) || inCidr(v6, SIX_TO_FOUR)) return undefined;
  const range = v6.range();
  if (range !== 'unicast') {
    return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  }
  return inCidr(v6, GLOBAL_UNICAST_V6) ? undefined : 'not a global unicast address';
}

/** Parses allowed nets: CIDRs, or single addresses. IPv4-mapped IPv6 nets become IPv4 nets. */
export function parseAllowNets(nets: readonly string[]): Cidr[] {
  return nets.map((text) => {
    let cidr: Cidr;
    try {
      cidr = text.includes('/')
        ? ipaddr.parseCIDR(text)
        : ((address) => [address, address.kind() === 'ipv4' ? 32 : 128] as Cidr)(
            ipaddr.parse(text),
          );
    } catch {
      throw new Error(
        `outbound allow-list: "${text}" is not a CIDR (such as 192.168.10.0/24 or fd00::/8)`,
      );
    }
    const [network, bits] = cidr;
    if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(network as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return cidr;
  });
}

/** Refuses host names of cloud metadata endpoints (case and a trailing dot ignored). */
export function checkHostName(host: string): AddressVerdict {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return METADATA_HOST_NAMES.has(name) ? refused(`${name} is a cloud metadata endpoint`) : ALLOWED;
}

/**
 * The address rules of every outbound request. Public unicast addresses are allowed. Refused:
 * loopback, link-local, private (RFC 1918, fc00::/7), unspecified, multicast, broadcast,
 * carrier-grade NAT, reserved and documentation ranges, and IPv6 outside 2000::/3; IPv4-mapped,
 * NAT64 and 6to4 addresses are judged by the IPv4 address inside. An address inside one of
 * `allowNets` is allowed all the same, except a cloud metadata address, which is always refused.
 */
export function checkAddress(text: string, allowNets: readonly Cidr[]): AddressVerdict {
  let parsed: Address;
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return refused(`${text} is not an IP address`);
  }
  const address = unwrapMapped(parsed);
  const embedded = embeddedIPv4(address);
  const shown = address.toString();
  const candidates = embedded ? [address, embedded] : [address];
  if (candidates.some((each) => METADATA_ADDRESSES.some((meta) => sameAddress(each, meta)))) {
    return refused(`${shown} is a cloud metadata address`);
  }
  if (candidates.some((each) => allowNets.some((net) => inCidr(each, net)))) return ALLOWED;
  const special = specialRange(address);
  if (special) return refused(`${shown} is ${special}`);
  const inner = embedded && specialRange(embedded);
  if (inner) return refused(`${shown} embeds ${embedded.toString()}, ${inner}`);
  return ALLOWED;
}

/** The address rules with one allow-list, parsed once. */
export class OutboundAddressPolicy {
  private readonly allowNets: Cidr[];

  constructor(allowNets: readonly string[]) {
    this.allowNets = parseAllowNets(allowNets);
  }

  checkHostName(host: string): AddressVerdict {
    return checkHostName(host);
  }

  checkAddress(address: string): AddressVerdict {
    return checkAddress(address, this.allowNets);
  }
}
