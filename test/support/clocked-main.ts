// The server exactly as `src/main.ts` starts it, on a clock the test process moves forward instead of
// waiting (docs/testing.md, "Time"). Only the test harness spawns this file (startFolio with
// `movableClock`), over IPC: `npm start` runs src/main.ts, so no deployment can run on a moved clock.
import { start } from '../../src/main.ts'

// Shared memory: the webhook worker thread reads the same offset (shared/time.ts `offsetClock`).
const offset = new Float64Array(new SharedArrayBuffer(8))
// Where the clock was before a restart: the harness hands it over, so time never goes back.
offset[0] = Number(process.env.FOLIO_TEST_CLOCK_OFFSET_MS ?? 0)

process.on('message', (message: { advance?: number }) => {
  if (typeof message?.advance === 'number' && message.advance >= 0) offset[0]! += message.advance
  process.send?.({ offset: offset[0] })
})

await start({ clockOffset: offset })
