import type { Config } from '../../config.ts'
import { indexNowKeyPath } from '../site/discovery.ts'
import type { PassUrlsPayload } from './events.ts'

type Request = { body: string; headers: Record<string, string> }

/**
 * One IndexNow submission (indexnow.org, "Submitting a set of URLs"): the pages of one part of a
 * pass, with the key and where the key file proves it belongs to the site.
 */
export function indexNowRequest(payload: string, options: Pick<Config, 'siteUrl' | 'indexNow'>): Request {
  const { urls } = JSON.parse(payload) as PassUrlsPayload
  const key = options.indexNow.key ?? ''
  const body = JSON.stringify({
    host: new URL(options.siteUrl).host,
    key,
    keyLocation: `${options.siteUrl}${indexNowKeyPath(key)}`,
    urlList: urls,
  })
  return { body, headers: { 'Content-Type': 'application/json; charset=utf-8' } }
}

/** A WebSub publish ping (W3C WebSub §7, as hubs take it): `hub.mode=publish&hub.url=<feed>`, form-encoded. */
export function webSubRequest(payload: string): Request {
  const { urls } = JSON.parse(payload) as PassUrlsPayload
  const form = new URLSearchParams([['hub.mode', 'publish'], ...urls.map((url): [string, string] => ['hub.url', url])])
  return { body: form.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }
}
