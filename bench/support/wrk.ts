import { cpuMs } from './cpu.ts'

/**
 * wrk for HTTP read benchmarks (engine.bench.ts, reads.bench.ts): pinned to the last core with
 * taskset where it exists, since a JavaScript load client saturates before the server does.
 */
const CORES = navigator.hardwareConcurrency
const WRK_SECONDS = 4

/** Requests/s from wrk: one thread, 16 connections, WRK_SECONDS. */
export async function wrk(url: string): Promise<number> {
  return (await wrkRun(url)).rps
}

/**
 * wrk against `url`, with the CPU time the serving process `pid` spent per request in that time
 * (µs, all its threads; null without /proc): on a shared machine a steadier figure than req/s.
 * Run without blocking this process: it keeps reading the servers' logs meanwhile, as a journal
 * would. (Blocked, a server's stdout pipe fills within milliseconds and every access line after
 * that piles up in the server's memory, a cost no deployment pays.)
 */
export async function wrkRun(url: string, pid?: number): Promise<{ rps: number; cpuUs: number | null }> {
  const before = pid === undefined ? null : cpuMs(pid)
  const pin = Bun.which('taskset') && CORES > 1 ? ['taskset', '-c', String(CORES - 1)] : []
  const run = Bun.spawn([...pin, 'wrk', '-t1', '-c16', `-d${WRK_SECONDS}s`, url], {
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: (WRK_SECONDS + 10) * 1000,
  })
  const [text, error] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited])
  const after = pid === undefined ? null : cpuMs(pid)
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text)
  const count = /(\d+) requests in/.exec(text)
  if (!rps || !count) throw new Error(`wrk failed: ${error}`)
  const cpuUs = before === null || after === null ? null : ((after - before) * 1000) / Number(count[1])
  return { rps: Number(rps[1]), cpuUs }
}

/** The baseline Caddy: nothing but a `file_server` over CACHE_DIR (startCaddy's variables). */
export const plainCaddyfile = `{\n\tadmin off\n\tauto_https off\n}\nhttp://{$FOLIO_CADDY_HOST}:{$FOLIO_CADDY_PORT} {\n\troot * {$CACHE_DIR}\n\tfile_server\n}\n`

/** The first line a child prints (the bare server's URL), read without waiting for its end. */
export async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader()
  let text = ''
  const deadline = Date.now() + 10_000
  while (!text.includes('\n') && Date.now() < deadline) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return text.split('\n')[0]!.trim()
}
