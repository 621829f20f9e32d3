import { afterAll, expect, test } from 'bun:test'
import { migratedTempDb } from '../../../test/support/temp-db.ts'
import { loadConfig } from '../../config.ts'
import { webhookDeliveries, webhookReceivers } from '../../db/schema/index.ts'
import { createLogger } from '../../shared/log.ts'
import { webhookHealth } from './health.ts'
import { createDeliveryWorker } from './worker.ts'

const { db, dir, dispose } = migratedTempDb('folio-webhook-health-')
afterAll(dispose)

test('a delivery a fast clock set an hour ahead shows in /healthz until the worker re-bases it, on the injected clock', async () => {
  const config = loadConfig({ DATA_DIR: dir, WEBHOOK_RETRY_DELAYS: '300,600' })
  // The injected clock: the wall clock after NTP stepped it back an hour.
  const now = Date.parse('2026-03-01T12:00:00Z')
  const clock = () => new Date(now)
  // A disabled receiver: its deliveries are re-based like any, and never sent.
  const receiver = db
    .insert(webhookReceivers)
    .values({ url: 'https://hooks.example/x', secret: 's', events: '*', enabled: false })
    .returning()
    .get()
  const row = (nextAttemptAt: number) => ({
    receiverId: receiver.id,
    eventId: `e${nextAttemptAt}`,
    event: 'blog.post.published',
    payload: '{}',
    nextAttemptAt,
  })
  // One a fast clock set an hour out; one at the policy's longest delay (600 s), which is honest.
  db.insert(webhookDeliveries)
    .values([row(now + 60 * 60 * 1000), row(now + 600_000)])
    .run()
  const health = webhookHealth(db, config, clock, null)
  expect(health()).toEqual({ aheadOfPolicy: 1, rebased: null })

  const reported: number[] = []
  const worker = createDeliveryWorker(
    db,
    config,
    createLogger('error', () => {}),
    (rebased) => {
      reported.push(rebased)
      // Its sleep after this round is cut short: the second round begins at once.
      if (reported.length === 1) worker.wake()
      // The second round begins once the first has re-based: enough.
      if (reported.length === 2) worker.stop()
    },
    clock,
  )
  await worker.run()
  expect(reported).toEqual([0, 1])
  expect(health().aheadOfPolicy).toBe(0)
  const due = db
    .select({ at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .all()
    .map((r) => r.at)
  expect(due.sort()).toEqual([now, now + 600_000])
})
