import { Elysia } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { PRIVATE_CACHE, SECURITY_HEADERS } from '../../http/headers.ts'
import { signedIn } from '../people/routes.ts'
import type { ConsoleBundle } from './bundle.ts'
import { dashboard } from './dashboard.ts'

/**
 * The console page's policy: only its own script and style (no inline script, no eval), calls
 * only to this origin, never framed. Images may come from https (post covers, the site icon).
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const pageHtml = (bundle: ConsoleBundle) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Folio console</title>
<link rel="stylesheet" href="/admin/assets/${bundle.style.file}">
<script type="module" src="/admin/assets/${bundle.script.file}"></script>
</head>
<body>
<div id="console"><noscript>The Folio console needs JavaScript.</noscript></div>
</body>
</html>
`

/** `/admin/`: the console's one page (every console path answers it), its built assets, and the dashboard's figures. */
export const consoleRoutes = (ctx: Ctx, bundle: ConsoleBundle) => {
  const page = pageHtml(bundle)
  const assets = new Map([bundle.script, bundle.style].map((a) => [a.file, a]))
  const html = () =>
    new Response(page, {
      headers: {
        ...SECURITY_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': PRIVATE_CACHE,
        'content-security-policy': CONSOLE_CSP,
        'x-frame-options': 'DENY',
      },
    })
  return (
    new Elysia({ name: 'console.page' })
      .use(auth)
      // Elysia answers `/admin` and `/admin/` alike; the page routes by its own path.
      .get('/admin/', html)
      .get('/admin/setup', html)
      .get('/admin/:page', html)
      .get('/admin/assets/:file', ({ params }) => {
        const found = assets.get(params.file)
        if (!found) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
        return new Response(found.bytes, { headers: { 'content-type': found.type, 'cache-control': PRIVATE_CACHE } })
      })
      .get('/admin/api/dashboard', ({ request, caller }) => dashboard(ctx, signedIn(request), caller.scopes.has('blog:admin')), {
        scope: 'blog:read',
      })
  )
}
