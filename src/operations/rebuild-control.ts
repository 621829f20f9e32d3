import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Elysia } from 'elysia'
import { envelopeResponse, success } from '../http/envelope.ts'
import type { Logger } from '../shared/log.ts'
import type { RebuildStats } from '../modules/publishing/stats.ts'

/**
 * `cli rebuild` handed to the running server (docs/operations.md, "Rebuilds beside a running
 * server"): the server does the rebuild in its background lane, with the render threads and the
 * code it already holds, instead of a second process of the same size starting beside it.
 *
 * While it serves, the server keeps a note in DATA_DIR (`CONTROL_NOTE`, readable by its user alone)
 * naming its pid, the URL it answers on and a secret made at its start; the CLI reads it, asks
 * `POST /_folio/rebuild` with the secret in `X-Folio-Control`, and follows `GET /healthz`'s
 * `data.rebuild` to its end. Whoever may read DATA_DIR may already rewrite the database, so the
 * note grants nothing more; nobody else can ask (the secret is compared in constant time).
 */
export const CONTROL_NOTE = '.folio-control.json'
export const REBUILD_PATH = '/_folio/rebuild'
export const CONTROL_HEADER = 'x-folio-control'

export interface ControlNote {
  pid: number
  url: string
  /** The CACHE_DIR it renders into (absolute): a CLI rebuilding another one does its own work. */
  cacheDir: string
  secret: string
}

export interface RebuildRequest {
  force: boolean
  verify: boolean
  target: 's3' | null
}

/** `/healthz`'s `data.rebuild`: the last rebuild a CLI asked for (`id` counts them since the start). */
export type RebuildState =
  | { state: 'idle' }
  | ({
      id: number
      state: 'running' | 'done' | 'failed'
      startedAt: string
      endedAt?: string
      error?: string
      result?: object
    } & RebuildRequest)

/** The URL a client on this machine reaches a server listening on `hostname:port` by. */
export function localUrl(hostname: string, port: number): string {
  const host = hostname === '0.0.0.0' || hostname === '' ? '127.0.0.1' : hostname === '::' ? '::1' : hostname
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}

export function writeControlNote(dataDir: string, note: ControlNote): void {
  const temp = join(dataDir, `${CONTROL_NOTE}.${process.pid}.tmp`)
  writeFileSync(temp, JSON.stringify(note), { mode: 0o600 })
  renameSync(temp, join(dataDir, CONTROL_NOTE))
}

/** The running server's note, or null (none, unreadable, or not one of ours). */
export function readControlNote(dataDir: string): ControlNote | null {
  try {
    const note = JSON.parse(readFileSync(join(dataDir, CONTROL_NOTE), 'utf8')) as Partial<ControlNote>
    const { pid, url, cacheDir, secret } = note
    if (typeof pid !== 'number' || typeof url !== 'string' || typeof cacheDir !== 'string' || typeof secret !== 'string') return null
    return { pid, url, cacheDir, secret }
  } catch {
    return null
  }
}

/** Removes the note, when it is still this process's (a later server may have written its own). */
export function removeControlNote(dataDir: string): void {
  if (readControlNote(dataDir)?.pid === process.pid) rmSync(join(dataDir, CONTROL_NOTE), { force: true })
}

export const MIRROR_NEEDED = 'rebuild --target s3 needs PUBLISH_TARGETS=disk,s3 and the ARTIFACTS_S3_* settings'

const refusal = (status: number, code: string, message: string) => envelopeResponse({ code, message, data: null }, status)

/** The request body's flags, or the first fault found in it. */
function parseRequest(body: unknown): RebuildRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object'
  const { force = false, verify = false, target = null } = body as Record<string, unknown>
  if (typeof force !== 'boolean') return 'force must be true or false'
  if (typeof verify !== 'boolean') return 'verify must be true or false'
  if (target !== null && target !== 's3') return `target must be s3, got ${JSON.stringify(target)}`
  return { force, verify, target }
}

/**
 * The server's side: one rebuild at a time, run by `perform` (the publisher's rebuild, then the
 * mirror's reconcile with `target: 's3'`), its state shown on `/healthz`. `refuse` names what this
 * server cannot do (the mirror not configured), as the CLI would have said it.
 */
export function createRebuildControl(
  perform: (request: RebuildRequest) => Promise<object>,
  refuse: (request: RebuildRequest) => string | null,
  log: Logger,
) {
  const secret = randomBytes(32).toString('hex')
  const expected = Buffer.from(secret)
  let state: RebuildState = { state: 'idle' }
  let count = 0
  let running: Promise<void> | null = null

  const allowed = (given: string | null) => {
    const bytes = Buffer.from(given ?? '')
    return bytes.length === expected.length && timingSafeEqual(bytes, expected)
  }

  function begin(request: RebuildRequest): number {
    const id = ++count
    const started = { id, ...request, startedAt: new Date().toISOString() }
    state = { ...started, state: 'running' }
    log.info('rebuild asked for by the CLI', { id, ...request })
    running = perform(request)
      .then((result) => {
        state = { ...started, state: 'done', endedAt: new Date().toISOString(), result }
        log.info('rebuild asked for by the CLI done', { id, ...result })
      })
      .catch((error) => {
        state = { ...started, state: 'failed', endedAt: new Date().toISOString(), error: String((error as Error).message ?? error) }
        log.error('rebuild asked for by the CLI failed', { id, error: String(error) })
      })
      .finally(() => {
        running = null
      })
    return id
  }

  const routes = new Elysia({ name: 'operations.rebuild-control' }).post(REBUILD_PATH, ({ request, body }) => {
    if (!allowed(request.headers.get(CONTROL_HEADER)))
      return refusal(401, 'UNAUTHORIZED', `${REBUILD_PATH} needs the secret of DATA_DIR/${CONTROL_NOTE} in ${CONTROL_HEADER}`)
    const parsed = parseRequest(body)
    if (typeof parsed === 'string') return refusal(400, 'INVALID_PARAMETER', parsed)
    const fault = refuse(parsed)
    if (fault) return refusal(400, 'INVALID_PARAMETER', fault)
    if (running)
      return refusal(409, 'REBUILD_RUNNING', 'a rebuild is already under way in this server; wait for it (GET /healthz, data.rebuild)')
    return envelopeResponse(success({ id: begin(parsed) }), 202)
  })

  return {
    secret,
    routes,
    /**
     * Writes this server's note. A DATA_DIR it cannot write to (full, read-only) costs only the
     * hand-over: the start goes on, and a `cli rebuild` then says the server has not said where it answers.
     */
    note(dataDir: string, cacheDir: string, url: string): void {
      try {
        writeControlNote(dataDir, { pid: process.pid, url, cacheDir: resolve(cacheDir), secret })
      } catch (error) {
        log.warn('the note for cli rebuild was not written: a rebuild beside this server will fail', { error: String(error) })
      }
    },
    health: (): RebuildState => state,
    /** Waits for a rebuild under way (the server's stop). */
    stop: async () => {
      await running
    },
  }
}

/** What the server's rebuild goes through: the publisher, and the artifact mirror when configured. */
interface Publishing {
  publisher: { rebuild(options: { force: boolean; verify: boolean }): Promise<RebuildStats> }
  mirror: { location: string; reconcile(force: boolean): Promise<{ put: number; deleted: number; unchanged: number }> } | null
}

/** The control over this server's publishing: its rebuild, then the mirror's reconcile with `--target s3`, as `cli rebuild` does them. */
export const serverRebuildControl = ({ publisher, mirror }: Publishing, log: Logger) =>
  createRebuildControl(
    async ({ force, verify, target }) => {
      const stats = await publisher.rebuild({ force, verify })
      if (target !== 's3' || !mirror) return { stats }
      return { stats, mirrored: { ...(await mirror.reconcile(force)), location: mirror.location } }
    },
    ({ target }) => (target === 's3' && !mirror ? MIRROR_NEEDED : null),
    log,
  )
