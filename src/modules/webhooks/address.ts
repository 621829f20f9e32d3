import { lookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'
import { parseIp } from '../../shared/ip.ts'

/**
 * Receivers must be on the public internet: a webhook that may point at loopback, link-local,
 * private or unspecified addresses lets any `blog:admin` token make the server call its own
 * network (cloud metadata at 169.254.169.254, an admin port on 127.0.0.1). WEBHOOK_ALLOW_PRIVATE=1
 * lifts this for a receiver on the same box or LAN (and for the test suite's loopback receivers).
 */
/**
 * The ranges that carry no receiver come from ipaddr.js's named ranges (RFC 6890 and the IANA
 * special-purpose registries, kept by its maintainers) rather than a hand list: only `unicast` is
 * public. IPv4-mapped addresses are judged as their IPv4 address; NAT64 (`rfc6052`) reaches the
 * IPv4 address it embeds; 6to4 (`2002::/16`), Teredo (`2001::/32`) and site-local (`fec0::/10`)
 * tunnel to or name addresses nobody vetted, so they are refused. The deprecated IPv4-compatible
 * block `::/96` is the one range ipaddr.js calls unicast: it is added here.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96')

function isPublic(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const ip = ipaddr.process(address)
  if (ip.kind() === 'ipv6' && ip.match(IPV4_COMPATIBLE)) return false
  const range = ip.range()
  if (range === 'rfc6052') return isPublic(ip.toByteArray().slice(12).join('.'))
  return range === 'unicast'
}

/** Why `address` (an IP literal) may not receive webhooks, or null when it is a public unicast address. */
export function privateAddressReason(address: string): string | null {
  if (!parseIp(address)) return `${address} is not an IP address`
  return isPublic(address) ? null : `${address} is a loopback, private, link-local or reserved address`
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
