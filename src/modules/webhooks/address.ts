import { lookup } from 'node:dns/promises'
import { inSubnet, parseIp, parseSubnet, type Ip, type Subnet } from '../../shared/ip.ts'

/**
 * Receivers must be on the public internet: a webhook that may point at loopback, link-local,
 * private or unspecified addresses lets any `blog:admin` token make the server call its own
 * network (cloud metadata at 169.254.169.254, an admin port on 127.0.0.1). WEBHOOK_ALLOW_PRIVATE=1
 * lifts this for a receiver on the same box or LAN (and for the test suite's loopback receivers).
 */
const NOT_PUBLIC: readonly Subnet[] = [
  // IPv4 (RFC 6890): "this" network, private, carrier-grade NAT, loopback, link-local and cloud
  // metadata, IETF, private, benchmarking, multicast, reserved and broadcast.
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
  // IPv6: unspecified, loopback, unique local, link-local, multicast. IPv4-mapped addresses are
  // judged as their IPv4 address (parseIp); NAT64 reaches the IPv4 address it embeds.
  '::/128',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
].map((cidr) => parseSubnet(cidr)!)
const NAT64 = parseSubnet('64:ff9b::/96')!

function isPublic(ip: Ip): boolean {
  if (inSubnet(ip, NAT64)) return isPublic({ family: 4, value: ip.value & 0xffffffffn })
  return !NOT_PUBLIC.some((subnet) => inSubnet(ip, subnet))
}

/** Why `address` (an IP literal) may not receive webhooks, or null when it is a public unicast address. */
export function privateAddressReason(address: string): string | null {
  const ip = parseIp(address)
  if (!ip) return `${address} is not an IP address`
  return isPublic(ip) ? null : `${address} is a loopback, private, link-local or reserved address`
}

/** Names that always mean this machine (RFC 6761), whatever DNS says. */
const isLocalName = (hostname: string) => hostname === 'localhost' || hostname.endsWith('.localhost')

/** Save-time check of a receiver URL's host (no DNS: names are checked again at every delivery). */
export function receiverHostFault(url: URL): string | null {
  const host = url.hostname.toLowerCase()
  if (isLocalName(host)) return `${host} is this machine`
  return parseIp(host) ? privateAddressReason(host) : null
}

export interface ResolvedTarget {
  /** The address the delivery connects to: checked once, used once, so DNS cannot change it in between. */
  address: string
  family: 4 | 6
}

/**
 * Resolves the receiver's host and vets every address it has. Throws with the reason when one is
 * not public (a name with one private address among public ones could be made to pick it).
 */
export async function resolveReceiver(url: URL, allowPrivate: boolean): Promise<ResolvedTarget> {
  const host = url.hostname.toLowerCase()
  const bare = host.replace(/^\[|\]$/g, '')
  const literal = parseIp(bare)
  const addresses: ResolvedTarget[] = literal
    ? [{ address: bare, family: bare.includes(':') ? 6 : 4 }]
    : ((await lookup(host, { all: true, verbatim: true })) as ResolvedTarget[])
  if (!allowPrivate) {
    if (isLocalName(host)) throw new Error(`${host} is this machine (set WEBHOOK_ALLOW_PRIVATE=1 to allow)`)
    for (const { address } of addresses) {
      const reason = privateAddressReason(address)
      if (reason) throw new Error(`${reason} (set WEBHOOK_ALLOW_PRIVATE=1 to allow)`)
    }
  }
  const [first] = addresses
  if (!first) throw new Error(`${host} has no address`)
  return first
}

/** The URL to fetch so the connection goes to `target`; the caller sends the original Host. */
export function pinnedUrl(url: URL, target: ResolvedTarget): URL {
  const pinned = new URL(url)
  pinned.hostname = target.family === 6 ? `[${target.address}]` : target.address
  return pinned
}
