import { describe, expect, test } from 'bun:test'
import { isIP } from 'node:net'
import { parseIp, parseSubnet } from './ip.ts'

// parseIp no longer loads node:net (its streams cost every start): it must still accept exactly the literals isIP accepts.
const LITERALS = [
  ...['1.2.3.4', '0.0.0.0', '255.255.255.255', '256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', '0x1.2.3.4', '1.2.3.04', '-1.2.3.4'],
  ...['::', '::1', 'fe80::1', '::ffff:1.2.3.4', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1::2::3', '::ffff:256.1.1.1', '2001:DB8::1'],
  ...['12345::', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', '', 'abc', ':1', '1:', 'g::1', '::1.2.3.4', '1.2.3.4/8', '1e1.2.3.4'],
  ...['ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255', '0000:0000:0000:0000:0000:0000:0000:0000', '00000::1', '١.٢.٣.٤'],
]

describe('parseIp', () => {
  test('accepts what node:net isIP accepts, brackets and zones aside', () => {
    for (const text of LITERALS) expect({ text, valid: parseIp(text) !== null }).toEqual({ text, valid: isIP(text) !== 0 })
    expect(parseIp('2001:db8::1')?.family).toBe(6)
    expect(parseIp('192.0.2.1')).toEqual({ family: 4, value: 0xc0000201n })
    expect(parseIp('[::1]')).toEqual({ family: 6, value: 1n })
    expect(parseIp('fe80::1%eth0')?.family).toBe(6)
    expect(parseIp('::ffff:10.0.0.1')).toEqual({ family: 4, value: 0x0a000001n })
    expect(parseSubnet('10.0.0.0/8')).toEqual({ family: 4, base: 10n, bits: 8 })
  })

  test('a long hostile header value is refused, its length checked before any pattern', () => {
    for (const text of ['1:'.repeat(50_000) + '1.2.3.4', '1.'.repeat(50_000), '0'.repeat(100_000)]) expect(parseIp(text)).toBeNull()
  })
})
