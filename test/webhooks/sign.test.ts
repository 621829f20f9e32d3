import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { sign, verify } from '../../src/modules/webhooks/sign.ts'

const secret = 'whsec_unit_0123456789abcdef'
const body = '{"id":"e1","event":"blog.post.published"}'
const t = 1_780_000_000

describe('sign', () => {
  test('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
    expect(sign(secret, body, t)).toBe(`t=${t},v1=${expected}`)
  })
})

describe('verify', () => {
  const header = sign(secret, body, t)
  test('accepts its own signature within the tolerance, either side', () => {
    expect(verify(secret, header, body, t)).toBe(true)
    expect(verify(secret, header, body, t + 300)).toBe(true)
    expect(verify(secret, header, body, t - 300)).toBe(true)
  })
  test('refuses a timestamp more than 5 minutes away', () => {
    expect(verify(secret, header, body, t + 301)).toBe(false)
    expect(verify(secret, header, body, t - 301)).toBe(false)
  })
  test('refuses a tampered body, another secret, or a timestamp swapped in', () => {
    expect(verify(secret, header, body.replace('e1', 'e2'), t)).toBe(false)
    expect(verify('whsec_other_0123456789abcdef', header, body, t)).toBe(false)
    expect(verify(secret, header.replace(`t=${t}`, `t=${t + 1}`), body, t)).toBe(false)
  })
  test('accepts any matching v1 (secret rotation) and refuses malformed headers', () => {
    const rotated = `${header},v1=${'0'.repeat(64)}`
    expect(verify(secret, rotated, body, t)).toBe(true)
    for (const bad of [
      null,
      undefined,
      '',
      'v1=abc',
      `t=${t}`,
      `t=abc,v1=${'0'.repeat(64)}`,
      `t=${t},v1=zz`,
      `t=${t},v1=${'0'.repeat(63)}`,
    ]) {
      expect(verify(secret, bad, body, t)).toBe(false)
    }
  })
})
