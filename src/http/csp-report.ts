import { Elysia } from 'elysia'
import type { Logger } from '../shared/log.ts'
import { readAtMost } from '../shared/stream.ts'
import { envelopeResponse } from './envelope.ts'

/** Folio's own receiver of violation reports: set CSP_REPORT_URL=/csp-reports to use it. */
export const CSP_REPORT_PATH = '/csp-reports'

/** A browser's report is a few hundred bytes; anything larger is not one. */
const MAX_REPORT_BYTES = 16 * 1024

/**
 * With CSP_REPORT_URL: every answer that carries a Content-Security-Policy (pages, previews, the
 * 404 page, the console) also asks the browser to report violations there (`report-uri`). Applied
 * by the shell to every answer, the pre-rendered ones included, by the header the answer carries,
 * never by its path; the Caddyfile appends the same directive (`FOLIO_CSP_REPORT`, set by
 * scripts/start-caddy.sh from the same variable).
 */
export function cspReporting(url: string | null): (response: Response) => void {
  if (!url) return () => {}
  const directive = `; report-uri ${url}`
  return (response) => {
    const policy = response.headers.get('content-security-policy')
    if (policy && !policy.includes('report-uri')) response.headers.set('content-security-policy', policy + directive)
  }
}

/** Fields of a `report-uri` report (`application/csp-report`) or a Reporting API one (`application/reports+json`) worth a log line. */
const REPORT_FIELDS = [
  'document-uri',
  'documentURL',
  'blocked-uri',
  'blockedURL',
  'violated-directive',
  'effectiveDirective',
  'effective-directive',
]

function summaries(body: unknown): Record<string, string>[] {
  const reports = Array.isArray(body)
    ? body.map((r) => (r as { body?: unknown })?.body)
    : [(body as { 'csp-report'?: unknown })?.['csp-report']]
  return reports
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
    .slice(0, 10)
    .map((r) => Object.fromEntries(REPORT_FIELDS.filter((f) => typeof r[f] === 'string').map((f) => [f, String(r[f]).slice(0, 500)])))
}

/**
 * `POST /csp-reports`: each violation a browser reports is one warn line in the log (the page,
 * what was blocked, which directive), never stored. Anonymous like the page that sends it, under
 * the shell's per-address rate limit; a body that is not a report is a 400 naming it.
 */
export const cspReportRoutes = (log: Logger) =>
  new Elysia({ name: 'csp.reports' }).post(
    CSP_REPORT_PATH,
    async ({ request }) => {
      const bytes = request.body ? await readAtMost(request.body, MAX_REPORT_BYTES) : null
      let body: unknown
      try {
        body = bytes === null ? null : JSON.parse(new TextDecoder().decode(bytes))
      } catch {
        body = null
      }
      const reports = body === null ? [] : summaries(body)
      if (!reports.length)
        return envelopeResponse(
          {
            code: 'VALIDATION_FAILED',
            message: 'body: not a CSP violation report',
            data: { errors: [{ field: 'body', message: 'not a CSP violation report' }] },
          },
          400,
        )
      for (const report of reports) log.warn('csp violation reported', report)
      return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } })
    },
    { parse: 'none' },
  )
