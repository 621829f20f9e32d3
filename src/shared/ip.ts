import ipaddr from 'ipaddr.js'

/** An IP address as a number: IPv4 in 32 bits, IPv6 in 128; an IPv4-mapped IPv6 address is its IPv4 address. */
export interface Ip {
  family: 4 | 6
  value: bigint
}

const v4Value = (address: string): bigint => address.split('.').reduce((n, part) => n * 256n + BigInt(part), 0n)

function v6Value(address: string): bigint {
  let text = address.toLowerCase()
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4Tail) {
    const n = v4Value(v4Tail[1]!)
    text = `${text.slice(0, -v4Tail[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const part = (s: string | undefined) => (s ? s.split(':').map((h) => BigInt(parseInt(h, 16))) : [])
  const left = part(head)
  const right = part(tail)
  const groups = tail === undefined ? left : [...left, ...Array<bigint>(8 - left.length - right.length).fill(0n), ...right]
  return groups.reduce((n, group) => (n << 16n) | group, 0n)
}

/** The longest IP literal: `ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`. */
const MAX_LITERAL = 45

/**
 * 4 or 6 for an IPv4 or IPv6 literal (no zone), 0 for anything else, as node:net's `isIP` answers
 * (which loads Node's streams: ~15 ms of every start, docs/benchmarks.md "CLI start"). Leading
 * zeros are refused in dotted parts, within IPv6 too; the length is checked first, so ipaddr.js's
 * patterns only ever see a few dozen characters.
 */
function ipFamily(text: string): 0 | 4 | 6 {
  if (text.length > MAX_LITERAL) return 0
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return 4
  if (!ipaddr.IPv6.isValid(text)) return 0
  const dotted = text.slice(text.lastIndexOf(':') + 1)
  return !dotted.includes('.') || ipaddr.IPv4.isValidFourPartDecimal(dotted) ? 6 : 0
}

const MAPPED_PREFIX = 0xffffn << 32n

/** Parses an IP literal (IPv6 with or without brackets or zone); null for anything else. */
export function parseIp(text: string): Ip | null {
  const bare = text
    .trim()
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!
  const family = ipFamily(bare)
  if (family === 4) return { family: 4, value: v4Value(bare) }
  if (family !== 6) return null
  const value = v6Value(bare)
  return value >> 32n === MAPPED_PREFIX >> 32n ? { family: 4, value: value & 0xffffffffn } : { family: 6, value }
}

export interface Subnet {
  family: 4 | 6
  base: bigint
  bits: number
}

/** `10.0.0.0/8`, `fe80::/10` or a single address; null when it is neither. */
export function parseSubnet(text: string): Subnet | null {
  const [address, prefix] = text.trim().split('/') as [string, string | undefined]
  const ip = parseIp(address)
  if (!ip) return null
  const width = ip.family === 4 ? 32 : 128
  const bits = prefix === undefined ? width : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN
  if (!(bits >= 0 && bits <= width)) return null
  return { family: ip.family, base: ip.value >> BigInt(width - bits), bits }
}

export function inSubnet(ip: Ip, subnet: Subnet): boolean {
  const width = ip.family === 4 ? 32 : 128
  return ip.family === subnet.family && ip.value >> BigInt(width - subnet.bits) === subnet.base
}
