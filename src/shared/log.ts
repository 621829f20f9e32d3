import { LOG_LEVELS, type LogLevel } from '../config.ts'

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** Structured JSON lines on stdout, one object per event, filtered by LOG_LEVEL. */
export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line + '\n')): Logger {
  const threshold = LOG_LEVELS.indexOf(level)
  const at =
    (name: LogLevel) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      if (LOG_LEVELS.indexOf(name) < threshold) return
      write(JSON.stringify({ time: new Date().toISOString(), level: name, message, ...fields }))
    }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
