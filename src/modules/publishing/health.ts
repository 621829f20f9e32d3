import { Elysia } from 'elysia'
import { envelopeResponse } from '../../http/envelope.ts'

/** A backlog this old, or any failing render, makes the service report itself degraded. */
const DEGRADED_AFTER_MS = 30_000

/**
 * `GET /healthz`: the render backlog for Caddy or a monitor to poll. 200 `0000` when artifacts are
 * current; 503 `DEGRADED` while renders fail (a full or read-only CACHE_DIR) or the oldest due job
 * waited more than 30 s. Never cached. With the artifact mirror, `data.mirror` shows its backlog
 * and last error; a bucket that lags does not make this box unhealthy (it still serves every read).
 * Other parts add their own section to `sections` (the webhook deliveries, `data.webhooks`),
 * shown beside the render backlog and never degrading it.
 */
export const healthRoutes = (
  health: () => { failing: number; oldestDueMs: number | null; stale: boolean },
  sections: Readonly<Record<string, () => object>>,
) =>
  new Elysia({ name: 'publishing.health' }).get('/healthz', () => {
    const render = health()
    // A rebuild after a cache invalidation is a long backlog by design: `stale`, whole files served meanwhile.
    const degraded = render.failing > 0 || (!render.stale && (render.oldestDueMs ?? 0) > DEGRADED_AFTER_MS)
    return envelopeResponse(
      {
        code: degraded ? 'DEGRADED' : '0000',
        message: degraded ? 'Public artifacts are not current: renders fail or lag (see data.render).' : 'success',
        data: {
          status: degraded ? 'degraded' : render.stale ? 'stale' : 'ok',
          render,
          ...Object.fromEntries(Object.entries(sections).map(([name, section]) => [name, section()])),
        },
      },
      degraded ? 503 : 200,
      { 'cache-control': 'no-store' },
    )
  })
