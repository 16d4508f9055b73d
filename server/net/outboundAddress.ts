import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the server may connect when a URL it fetches was chosen by a project (a bot's `fetch`, a
 * ClientApplication's `jwksUri`, its identity provider's `userInfoUrl`): project admins are not
 * trusted, so such a URL must not reach this machine or the networks behind it. One rule for every
 * such fetch (docs/security-bots.md "fetch rules"); an operator lists exceptions as `host:port`
 * in BOT_FETCH_ALLOWED_HOSTS (the name predates the other uses; config/serverConfig.ts parses it).
 */

/** The environment variable that lists the exceptions (named in refusals so an operator finds it). */
export const allowedHostsVariable = 'BOT_FETCH_ALLOWED_HOSTS';

/**
 * Addresses not reached unless an operator listed the `host:port`: this machine, private networks,
 * link-local (cloud metadata lives at 169.254.169.254 and fd00:ec2::254), carrier-grade NAT,
 * multicast and reserved ranges.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4 address hidden in an IPv6 one (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`, compatible `::a.b.c.d`). */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True when the address is one a project-chosen URL must not reach on its own (see `blocked`); also for a non-address. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** `host:port` as BOT_FETCH_ALLOWED_HOSTS names it: lower case, IPv6 without brackets, the default port filled in. */
export function hostPortOf(url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${host}:${port}`;
}

/** A URL refused before any connection was made (scheme, credentials, name, or address). */
export class OutboundAddressError extends Error {}

/** The address a connection must use: checked once, so DNS cannot answer differently when connecting. */
export interface OutboundTarget {
  address: string;
  family: number;
}

/**
 * Where a request to `url` may go: http(s) only, no credentials in the URL, and every address the
 * host resolves to public (a name that resolves to a public and an internal address is refused),
 * unless its `host:port` is in `allowed`. The caller connects to the address answered, never
 * resolving the name again (no DNS rebinding).
 */
export async function outboundTarget(url: URL, allowed: ReadonlySet<string>): Promise<OutboundTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundAddressError(`only http and https URLs, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new OutboundAddressError('URLs with credentials are not allowed');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const listed = allowed.has(hostPortOf(url));
  const addresses = isIP(hostname)
    ? [{ address: hostname, family: isIP(hostname) }]
    : await lookup(hostname, { all: true, verbatim: true }).catch(() => {
        throw new OutboundAddressError(`cannot resolve ${hostname}`);
      });
  if (addresses.length === 0) throw new OutboundAddressError(`cannot resolve ${hostname}`);
  if (!listed && addresses.some((entry) => isInternalAddress(entry.address))) {
    throw new OutboundAddressError(
      `${url.host} is a loopback, private, link-local or reserved address; ` +
        `an administrator may allow it in ${allowedHostsVariable}`,
    );
  }
  return addresses[0];
}
