import { describe, expect, test } from 'bun:test'
import corpus from './corpus/addresses.json'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { clientIp } from '../../src/http/server.ts'
import { privateAddressReason, receiverHostFault, resolveReceiver } from '../../src/modules/webhooks/address.ts'
import type { ClaimedDelivery } from '../../src/modules/webhooks/queue.ts'

describe('webhook receivers must be public (test/security/corpus/addresses.json)', () => {
  test.each(corpus.notPublic)('not public: %s', (address) => expect(privateAddressReason(address)).not.toBeNull())
  test.each(corpus.public)('public: %s', (address) => expect(privateAddressReason(address)).toBeNull())
  test.each(corpus.receiverUrls.refused)('refused at save: %s', (url) => expect(receiverHostFault(new URL(url))).not.toBeNull())
  test.each(corpus.receiverUrls.accepted)('accepted at save: %s', (url) => expect(receiverHostFault(new URL(url))).toBeNull())
  test('at delivery a name is resolved and every address vetted; the flag lifts it', async () => {
    expect(resolveReceiver(new URL('http://localhost:9/'), false)).rejects.toThrow('WEBHOOK_ALLOW_PRIVATE=1')
    expect(resolveReceiver(new URL('http://127.0.0.1:9/'), false)).rejects.toThrow('127.0.0.1 is a loopback')
    expect(await resolveReceiver(new URL('http://127.0.0.1:9/'), true)).toEqual({ address: '127.0.0.1', family: 4 })
    expect(await resolveReceiver(new URL('http://[::1]:9/'), true)).toEqual({ address: '::1', family: 6 })
  })
})

describe('X-Forwarded-For is believed only from TRUSTED_PROXIES', () => {
  const from = (peer: string, forwarded?: string) => {
    const request = new Request('http://folio.test/', { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} })
    return { request, server: { requestIP: () => ({ address: peer, family: 'IPv4' as const, port: 1 }) } }
  }
  const ip = (peer: string, forwarded: string | undefined, env: Record<string, string>) => {
    const { request, server } = from(peer, forwarded)
    const config = loadConfig(env)
    return clientIp(request, server, config.trustProxy ? config.trustedProxies : null)
  }
  test('without TRUST_PROXY the header is ignored', () => expect(ip('127.0.0.1', '6.6.6.6', {})).toBe('127.0.0.1'))
  test('the default trusts the loopback proxy only', () => {
    expect(ip('127.0.0.1', '6.6.6.6, 203.0.113.9', { TRUST_PROXY: '1' })).toBe('203.0.113.9')
    expect(ip('::1', '203.0.113.9', { TRUST_PROXY: '1' })).toBe('203.0.113.9')
    // 127.0.0.2 is loopback but no configured proxy: once it could name itself anyone.
    expect(ip('127.0.0.2', '6.6.6.6', { TRUST_PROXY: '1' })).toBe('127.0.0.2')
    expect(ip('203.0.113.5', '6.6.6.6', { TRUST_PROXY: '1' })).toBe('203.0.113.5')
  })
  test('a chain of trusted proxies is walked from the right', () => {
    const env = { TRUST_PROXY: '1', TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7' }
    expect(ip('192.0.2.7', '6.6.6.6, 198.51.100.1, 10.1.1.1', env)).toBe('198.51.100.1')
    expect(ip('192.0.2.7', '10.2.2.2, 10.1.1.1', env)).toBe('10.2.2.2')
    expect(ip('192.0.2.7', 'not-an-ip, 10.1.1.1', env)).toBe('10.1.1.1')
    expect(ip('192.0.2.7', undefined, env)).toBe('192.0.2.7')
    expect(ip('127.0.0.1', '6.6.6.6', env)).toBe('127.0.0.1')
  })
  test('a bad TRUSTED_PROXIES stops the start naming the variable', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/^TRUSTED_PROXIES: /)
    expect(() => loadConfig({ TRUSTED_PROXIES: 'caddy' })).toThrow(/^TRUSTED_PROXIES: /)
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/^WEBHOOK_ALLOW_PRIVATE: /)
  })
})

const DELIVER = resolve(import.meta.dir, '../../src/modules/webhooks/deliver.ts')

describe('a delivery connects to the vetted address and still checks TLS against the name', () => {
  test('https receiver named localhost, pinned to 127.0.0.1: certificate checked against the name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-tls-'))
    const openssl = Bun.spawnSync(
      [
        'openssl',
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ].concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stderr: 'ignore' },
    )
    expect(openssl.exitCode).toBe(0)
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8')
    const seen: string[] = []
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      tls: { cert, key: readFileSync(join(dir, 'key.pem'), 'utf8') },
      fetch: (request) => {
        seen.push(request.headers.get('host') ?? '')
        return new Response('ok\u001b[31m')
      },
    })
    const delivery: ClaimedDelivery = {
      id: 1,
      receiverId: 1,
      url: `https://localhost:${server.port}/hook`,
      secret: 's',
      kind: 'webhook',
      event: 'e',
      payload: '{}',
      attempts: 0,
    }
    // A worker process that trusts the test certificate, as an operator's CA bundle would.
    const sendFrom = async (allowPrivate: boolean) => {
      const script = `import { send } from ${JSON.stringify(DELIVER)}
        console.log(JSON.stringify(await send(${JSON.stringify(delivery)}, { webhookTimeoutMs: 5000, webhookAllowPrivate: ${allowPrivate} })))`
      const child = Bun.spawn([process.execPath, '-e', script], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') },
        stdout: 'pipe',
      })
      return JSON.parse(await new Response(child.stdout).text())
    }
    try {
      expect(await sendFrom(true)).toMatchObject({ httpStatus: 200, response: 'ok [31m', failureReason: null })
      expect(seen).toEqual([`localhost:${server.port}`])
      expect((await sendFrom(false)).failureReason).toContain('localhost is this machine')
      expect(seen).toHaveLength(1)
    } finally {
      server.stop(true)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
