import { afterAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { loadConfig } from '../../src/config.ts'
import { webhookDeliveries, webhookReceivers } from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/shared/log.ts'
import { createDeliveryWorker } from '../../src/modules/webhooks/worker.ts'
import { manualClock } from '../support/manual-clock.ts'
import { migratedTempDb } from '../support/temp-db.ts'
import { startReceiver } from './receiver.ts'

// The retry schedule on an injected clock: the delivery worker (the code the server's worker
// thread runs) against a real SQLite file and a real HTTP receiver, its "now" moved by the test.
// A retry must come exactly when its delay has passed on that clock: not 1 ms before, and at once
// when it is due. test/webhooks/retries.test.ts checks the same deliveries end to end.
const DELAYS = [300, 600, 900]
const { db, dir, dispose } = migratedTempDb('folio-retry-schedule-')
// A long poll: only the test's wake-ups start rounds (a round the worker starts by itself runs at
// the same frozen "now", so it changes nothing).
const config = loadConfig({
  DATA_DIR: dir,
  WEBHOOK_RETRY_DELAYS: DELAYS.map((d) => `${d}ms`).join(','),
  WEBHOOK_POLL_MS: '60000',
  WEBHOOK_ALLOW_PRIVATE: '1',
})
const time = manualClock()
let rounds = 0
const worker = createDeliveryWorker(
  db,
  config,
  createLogger('error', () => {}),
  () => void rounds++,
  time.clock,
)
const running = worker.run()
const receiver = startReceiver((request, n) => {
  if (request.path === '/flaky') return new Response(n <= 2 ? 'not yet' : 'ok', { status: n <= 2 ? 503 : 200 })
  if (request.path === '/gone-later') return new Response(n === 1 ? 'busy' : 'unsubscribed', { status: n === 1 ? 503 : 410 })
  return new Response('x', { status: 500 })
})
afterAll(async () => {
  worker.stop()
  await running
  receiver.stop()
  dispose()
})

async function roundsPast(count: number) {
  for (const deadline = Date.now() + 10_000; rounds <= count; await Bun.sleep(1))
    if (Date.now() > deadline) throw new Error(`the worker began no round after round ${count}`)
}

/** Moves the clock by `ms`, then runs the worker until a whole round has run at the new time (its sends recorded). */
async function advance(ms: number) {
  time.advance(ms)
  const before = rounds
  worker.wake()
  await roundsPast(before) // a round began after the move…
  worker.wake()
  await roundsPast(before + 1) // …and ended: the next one began.
}

function receiverAt(path: string) {
  return db
    .insert(webhookReceivers)
    .values({ url: receiver.url(path), secret: 's', events: '*' })
    .returning()
    .get().id
}

/** A delivery due now, to the receiver `receiverId`. */
function queue(receiverId: number, post: number) {
  return db
    .insert(webhookDeliveries)
    .values({
      receiverId,
      eventId: `e${post}`,
      event: 'blog.post.published',
      payload: `{"post":{"id":${post}}}`,
      nextAttemptAt: time.now(),
    })
    .returning()
    .get().id
}

const delivery = (id: number) => db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get()!

test('each retry comes when its delay has passed on the clock, not a millisecond before; a delivered one is never sent again', async () => {
  const id = queue(receiverAt('/flaky'), 1)
  await advance(0)
  expect(receiver.on('/flaky')).toHaveLength(1)
  const first = time.now()
  expect(delivery(id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: first + DELAYS[0]! })
  await advance(DELAYS[0]! - 1)
  expect(receiver.on('/flaky')).toHaveLength(1)
  await advance(1)
  expect(receiver.on('/flaky')).toHaveLength(2)
  expect(delivery(id)).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: time.now() + DELAYS[1]! })
  await advance(DELAYS[1]! - 1)
  expect(receiver.on('/flaky')).toHaveLength(2)
  await advance(1)
  expect(receiver.on('/flaky')).toHaveLength(3)
  expect(time.now() - first).toBe(DELAYS[0]! + DELAYS[1]!)
  expect(delivery(id)).toMatchObject({ status: 'delivered', attempts: 3, nextAttemptAt: null })
  // Long past every delay: nothing more.
  await advance(10 * DELAYS.at(-1)!)
  expect(receiver.on('/flaky')).toHaveLength(3)
})

test('a receiver that never succeeds gets its last retry at the last delay, then nothing', async () => {
  const id = queue(receiverAt('/broken'), 2)
  await advance(0)
  for (const [i, delay] of DELAYS.entries()) {
    await advance(delay - 1)
    expect(receiver.on('/broken')).toHaveLength(i + 1)
    await advance(1)
    expect(receiver.on('/broken')).toHaveLength(i + 2)
  }
  expect(delivery(id)).toMatchObject({ status: 'failed', attempts: 1 + DELAYS.length, nextAttemptAt: null })
  await advance(10 * DELAYS.at(-1)!)
  expect(receiver.on('/broken')).toHaveLength(1 + DELAYS.length)
})

test("a 410 calls off the receiver's waiting retry: it is not sent when it falls due", async () => {
  const gone = receiverAt('/gone-later')
  const waiting = queue(gone, 3)
  await advance(0)
  expect(delivery(waiting)).toMatchObject({ status: 'pending', attempts: 1 })
  // A second delivery, due now, is answered 410 before the first one's retry is due.
  const second = queue(gone, 4)
  await advance(DELAYS[0]! - 1)
  expect(receiver.on('/gone-later')).toHaveLength(2)
  expect(delivery(second)).toMatchObject({ status: 'failed', lastHttpStatus: 410 })
  expect(delivery(waiting)).toMatchObject({
    status: 'failed',
    nextAttemptAt: null,
    failureReason: 'receiver disabled after a 410 Gone answer',
  })
  await advance(10 * DELAYS.at(-1)!)
  expect(receiver.on('/gone-later')).toHaveLength(2)
})
