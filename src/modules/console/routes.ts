import { Elysia } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { PRIVATE_CACHE, SECURITY_HEADERS } from '../../http/headers.ts'
import { signedIn } from '../people/routes.ts'
import type { ConsoleAsset, ConsoleBundle } from './bundle.ts'
import { dashboard } from './dashboard.ts'

/**
 * The console page's policy: only its own script and style (no inline script, no eval), calls
 * only to this origin, never framed. Images may come from https (post covers, the site icon).
 * The one exception is the <style> element the editor's CodeMirror writes: it carries this
 * answer's nonce, which the page hands it on its stylesheet link (docs/editor.md).
 */
const consoleCsp = (nonce: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
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
<link rel="stylesheet" href="/admin/assets/${bundle.style.file}" nonce="NONCE">
<script type="module" src="/admin/assets/${bundle.script.file}"></script>
</head>
<body>
<div id="console"><noscript>The Folio console needs JavaScript.</noscript></div>
</body>
</html>
`

/** `/admin/`: the console's one page (every console path answers it), its built assets, and the dashboard's figures. */
export const consoleRoutes = (ctx: Ctx, bundle: () => Promise<ConsoleBundle>) => {
  // The page and the assets by name, made once the bundle is (at the first console request).
  let made: { page: string; assets: Map<string, ConsoleAsset> } | null = null
  const console = async () => {
    if (made) return made
    const built = await bundle()
    made = { page: pageHtml(built), assets: new Map([built.script, built.style, ...built.chunks].map((a) => [a.file, a])) }
    return made
  }
  const html = async () => {
    const { page } = await console()
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')
    return new Response(page.replace('NONCE', nonce), {
      headers: {
        ...SECURITY_HEADERS,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': PRIVATE_CACHE,
        'content-security-policy': consoleCsp(nonce),
        'x-frame-options': 'DENY',
      },
    })
  }
  return (
    new Elysia({ name: 'console.page' })
      .use(auth)
      // Elysia answers `/admin` and `/admin/` alike; the page routes by its own path.
      .get('/admin/', html)
      .get('/admin/setup', html)
      .get('/admin/:page', html)
      .get('/admin/assets/:file', async ({ params }) => {
        const found = (await console()).assets.get(params.file)
        if (!found) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
        return new Response(found.bytes, { headers: { 'content-type': found.type, 'cache-control': PRIVATE_CACHE } })
      })
      .get('/admin/api/dashboard', ({ request, caller }) => dashboard(ctx, signedIn(request), caller.scopes.has('blog:admin')), {
        scope: 'blog:read',
      })
  )
}
