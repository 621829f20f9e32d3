import { afterAll, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import type { ArtifactKind } from '../../src/modules/publishing/kinds.ts'
import { createPublishing } from '../../src/modules/publishing/index.ts'
import { BACKGROUND_SLICE, SLICE } from '../../src/modules/publishing/pass.ts'
import { renderHere } from '../../src/modules/publishing/render-pool.ts'
import { catalogue } from '../../src/modules/publishing/catalogue.ts'
import { ChangeFeed } from '../../src/shared/changes.ts'
import { createLogger } from '../../src/shared/log.ts'
import { systemClock } from '../../src/shared/time.ts'
import { migratedTempDb } from '../support/temp-db.ts'

/**
 * The background lane (29 item 5): a site-wide re-render goes in slices, and a change made while
 * it runs is rendered at the next slice boundary, not after the whole re-render. The engine runs
 * in-process on a real SQLite file and CACHE_DIR with a small artifact kind of its own, so the
 * test can act at a known point (inside the first background slice): no timing involved.
 */

const { db, dir, dispose } = migratedTempDb('folio-lanes-')
const threaded = migratedTempDb('folio-lanes-threaded-')
afterAll(() => {
  dispose()
  threaded.dispose()
})

const PAGES = 2 * SLICE + Math.floor(SLICE / 2)
type Note = { kind: 'notes'; name: string }
const note = (name: string): Note => ({ kind: 'notes', name })

/** The order artifacts were rendered in, and a signal fired inside the first background slice. */
const rendered: string[] = []
let inFirstSlice!: () => void
const firstSlice = new Promise<void>((resolve) => (inFirstSlice = resolve))

/** Every page on a settings change (a site-wide re-render, in the background) or, urgently, on a tag change; one page on a category change. */
const notes: ArtifactKind<Note> = {
  name: 'notes',
  tops: ['notes'],
  parse: (file) => (/^notes\/[a-z0-9]+$/.test(file) ? note(file.slice('notes/'.length)) : null),
  file: (n) => `notes/${n.name}`,
  canonical: () => null,
  contentType: (file) => (file.startsWith('notes/') ? 'text/plain; charset=utf-8' : null),
  headers: () => ({}),
  effect: () => null,
  plan: (_tx, change) =>
    change.kind === 'settings' || change.kind === 'tag'
      ? Array.from({ length: PAGES }, (_, i) => note(`p${i}`))
      : change.kind === 'category'
        ? [note('urgent')]
        : [],
  pace: (change) => (change.kind === 'settings' ? 'background' : 'now'),
  widens: () => false,
  every: () => [],
  survey: () => ({ inputs: '', moved: () => [], first: () => [] }),
  stamp: () => null,
  render(_db, artifacts) {
    if (artifacts.some((a) => a.name.startsWith('p'))) inFirstSlice()
    rendered.push(...artifacts.map((a) => a.name))
    return artifacts.map((a) => `note ${a.name}\n`)
  },
}

test('a change made during a site-wide re-render is served at the next slice, and /healthz shows the progress', async () => {
  const config = loadConfig({ DATA_DIR: join(dir, 'data'), CACHE_DIR: join(dir, 'cache') })
  const publishing = createPublishing(
    config,
    db,
    createLogger('error', () => {}),
    systemClock,
    [notes],
    { renderOnCommit: true },
  )
  const feed = new ChangeFeed()
  feed.subscribe(publishing.publisher.listener)
  try {
    // The site-wide change's own request still waits for its pages (it answers what is true).
    const siteWide = feed.write(db, (_tx, record) => record({ kind: 'settings' }))
    await firstSlice
    const started = publishing.publisher.health()
    expect(started.reRender.pending).toBe(PAGES)
    // A long background lane is no lag of the urgent one: /healthz stays ok.
    expect(started.oldestDueMs).toBeNull()

    // A publish-like change while the re-render is at its first slice: answered after that slice.
    await feed.write(db, (_tx, record) => record({ kind: 'category', id: 1 }))
    expect(rendered.indexOf('urgent')).toBe(SLICE)
    expect(rendered.length).toBe(SLICE + 1)
    expect(readFileSync(join(config.cacheDir, 'notes/urgent'), 'utf8')).toBe('note urgent\n')
    expect(existsSync(join(config.cacheDir, `notes/p${PAGES - 1}`))).toBe(false)
    const during = publishing.publisher.health()
    expect(during.reRender).toEqual({ pending: PAGES - SLICE, rendered: SLICE })

    const { effects } = await siteWide
    expect(effects.artifactsFailed).toBe(0)
    expect(rendered.length).toBe(PAGES + 1)
    expect(readFileSync(join(config.cacheDir, `notes/p${PAGES - 1}`), 'utf8')).toBe(`note p${PAGES - 1}\n`)
    // Once the last slice's pass has ended (stop waits for it), the lane is empty.
    await publishing.publisher.stop()
    expect(publishing.publisher.health().reRender).toEqual({ pending: 0, rendered: PAGES })
  } finally {
    await publishing.publisher.stop()
  }
})

test('with render threads the server slices its background work small (a publish waits for the slices in flight), its urgent work not', async () => {
  const config = loadConfig({ DATA_DIR: join(threaded.dir, 'data'), CACHE_DIR: join(threaded.dir, 'cache') })
  // The render threads' seam (render-pool.ts) with the slices rendered here, so their sizes can be seen.
  const here = renderHere(threaded.db, catalogue([notes]))
  const slices: number[] = []
  const renderer = {
    ...here,
    depth: 2,
    threaded: true,
    render: (paths: readonly string[]) => (slices.push(paths.length), here.render(paths)),
  }
  const publishing = createPublishing(
    config,
    threaded.db,
    createLogger('error', () => {}),
    systemClock,
    [notes],
    {
      renderOnCommit: true,
      renderer,
    },
  )
  const feed = new ChangeFeed()
  feed.subscribe(publishing.publisher.listener)
  try {
    await feed.write(threaded.db, (_tx, record) => record({ kind: 'settings' }))
    expect(slices.reduce((a, b) => a + b, 0)).toBe(PAGES)
    expect(Math.max(...slices)).toBe(BACKGROUND_SLICE)
    expect(BACKGROUND_SLICE).toBeLessThan(SLICE)
    slices.length = 0
    await feed.write(threaded.db, (_tx, record) => record({ kind: 'tag', id: 1 }))
    expect(slices.reduce((a, b) => a + b, 0)).toBe(PAGES)
    expect(Math.max(...slices)).toBe(SLICE)
  } finally {
    await publishing.publisher.stop()
  }
})
