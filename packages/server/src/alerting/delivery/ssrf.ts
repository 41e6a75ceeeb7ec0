import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard for notification URLs: a channel URL whose host is, or resolves to, a loopback,
 * link-local or private address is refused unless the config allows that network class. The check
 * runs inside the socket's DNS lookup, so a name that resolves differently at send time (DNS
 * rebinding) is caught too.
 */
export type NetworkClass = 'loopback' | 'link_local' | 'private';

const RANGES: Record<NetworkClass, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['0.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
    ['::', 128, 'ipv6'],
  ],
  link_local: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

const LISTS = Object.fromEntries(
  Object.entries(RANGES).map(([cls, ranges]) => {
    const list = new BlockList();
    for (const [net, prefix, type] of ranges) list.addSubnet(net, prefix, type);
    return [cls, list];
  }),
) as Record<NetworkClass, BlockList>;

export class RefusedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

/** The class of a literal address, or null for a public one. IPv4-mapped IPv6 is checked as IPv4. */
export function classifyAddress(address: string): NetworkClass | null {
  let addr = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(addr);
  if (mapped) addr = mapped[1];
  const family = isIP(addr);
  if (!family) return null;
  for (const cls of Object.keys(LISTS) as NetworkClass[])
    if (LISTS[cls].check(addr, family === 4 ? 'ipv4' : 'ipv6')) return cls;
  return null;
}

export interface AddressGuard {
  /** Throws RefusedAddressError when `address` is in a class that is not allowed. */
  check(host: string, address: string): void;
  /** A `lookup` for http.request that refuses disallowed addresses. */
  lookup: typeof dnsLookup;
  /** Resolves `host` and checks every address (for validating a URL before saving it). */
  checkHost(host: string): Promise<void>;
}

export function createAddressGuard(allowed: readonly NetworkClass[]): AddressGuard {
  const allow = new Set(allowed);
  const check = (host: string, address: string) => {
    const cls = classifyAddress(address);
    if (cls && !allow.has(cls)) {
      throw new RefusedAddressError(
        `${host} resolves to ${address}, a ${cls.replace('_', '-')} address; notifications to it are not allowed (see notifications.allow_networks)`,
      );
    }
  };
  const lookup = ((
    hostname: string,
    options: object,
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      try {
        for (const a of addresses) check(hostname, a.address);
      } catch (e) {
        return callback(e as Error, '');
      }
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as unknown as typeof dnsLookup;
  return {
    check,
    lookup,
    async checkHost(host) {
      const bare = host.replace(/^\[|\]$/g, '');
      if (isIP(bare)) return check(host, bare);
      const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
        dnsLookup(bare, { all: true }, (err, a) => (err ? reject(err) : resolve(a))),
      );
      for (const a of addresses) check(host, a.address);
    },
  };
}
