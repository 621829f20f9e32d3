import { LOG_LEVELS, type LogLevel } from '../config.ts'

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** Where a logger's lines go; a batching sink also says how to push out what it holds. */
export type LineSink = ((line: string) => void) & { flush?(): Promise<void> }

/** Structured JSON lines on stdout, one object per event, filtered by LOG_LEVEL. An error line is pushed out at once. */
export function createLogger(level: LogLevel, write: LineSink = (line) => process.stdout.write(line + '\n')): Logger {
  const threshold = LOG_LEVELS.indexOf(level)
  // The time as text, made once per millisecond: a busy server logs many lines in each.
  let ms = 0
  let time = ''
  const at = (name: LogLevel) => {
    const head = `","level":"${name}","message":`
    return (message: string, fields?: Record<string, unknown>) => {
      if (LOG_LEVELS.indexOf(name) < threshold) return
      const now = Date.now()
      if (now !== ms) {
        ms = now
        time = new Date(now).toISOString()
      }
      // `{"time":…,"level":…,"message":…, …fields}`, the fields' object spliced in rather than copied.
      const rest = fields ? JSON.stringify(fields) : '{}'
      write(`{"time":"${time}${head}${JSON.stringify(message)}${rest.length > 2 ? `,${rest.slice(1)}` : '}'}`)
      if (name === 'error') void write.flush?.()
    }
  }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

/**
 * Lines gathered and written in batches (the server's log, an access line per request): one write
 * per `flushMs` or per `maxChars` instead of one per line. A batch stays within PIPE_BUF (4 KB) of
 * ASCII, so the kernel writes it whole and a line the webhook worker's thread writes to the same
 * stdout never lands inside it. `flush()` writes what is held and resolves once `write` has taken
 * it all, so a clean shutdown loses no line.
 */
export function batchedLines(
  write: (chunk: string, done: () => void) => void = (chunk, done) => void process.stdout.write(chunk, () => done()),
  flushMs = 50,
  maxChars = 4096,
): LineSink & { flush(): Promise<void> } {
  let held: string[] = []
  let chars = 0
  let timer: Timer | null = null
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = null
    if (!held.length) return new Promise((done) => write('', done))
    const chunk = held.join('\n') + '\n'
    held = []
    chars = 0
    return new Promise((done) => write(chunk, done))
  }
  const sink = (line: string) => {
    if (held.length && chars + line.length + 1 > maxChars) void flush()
    held.push(line)
    chars += line.length + 1
    if (chars >= maxChars) void flush()
    else if (!timer) {
      timer = setTimeout(flush, flushMs)
      timer.unref()
    }
  }
  return Object.assign(sink, { flush })
}
