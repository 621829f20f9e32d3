import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { ConfigError, loadConfig } from './config.ts'
import { compose } from './main.ts'
import { createMcpServer } from './modules/mcp/server.ts'
import { authenticate, createCallLog } from './modules/tokens/tokens.ts'
import { createLogger } from './shared/log.ts'
import { systemClock } from './shared/time.ts'

/**
 * `npm run --silent mcp`: the MCP server over stdio for a desktop assistant. Like the admin CLI it
 * opens the service's own database and runs the same verbs in-process (no HTTP hop, no second
 * implementation); FOLIO_TOKEN decides which tools it offers. Stdout carries the protocol only:
 * logs go to stderr. Scheduled transitions and webhook deliveries stay with the running server.
 * Each tool call is written to the call log and marks the token used, as an API call would.
 */
async function main(): Promise<void> {
  const fail = (message: string): never => {
    process.stderr.write(`folio mcp: ${message}\n`)
    process.exit(1)
  }
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    return fail(`invalid configuration: ${error.message}`)
  }
  const token = process.env.FOLIO_TOKEN?.trim() || fail('FOLIO_TOKEN is required (an API token, see docs/agents.md)')
  const service = await compose(config, { log: createLogger(config.logLevel, (line) => process.stderr.write(line + '\n')) })
  const caller = authenticate(service.ctx.db, token)
  if (!caller) {
    await service.close()
    return fail('FOLIO_TOKEN is not a valid, active API token')
  }
  const callLog = createCallLog(service.ctx.db, systemClock)
  // Revoking the token ends a running session: it is read again before every tool call, and the
  // call made with a revoked one is refused, answered, and followed by the end of the session.
  const transport = new StdioServerTransport()
  let tokenGone = false
  const send = transport.send.bind(transport)
  transport.send = async (message) => {
    await send(message)
    if (tokenGone) await server.close()
  }
  const check = {
    current: () => authenticate(service.ctx.db, token),
    gone() {
      tokenGone = true
      process.stderr.write('folio mcp: FOLIO_TOKEN was revoked; the session ends\n')
    },
  }
  const server = createMcpServer(
    service.mcp,
    caller,
    ({ tool, code, message, durationMs }) => {
      try {
        callLog.record({
          tokenId: caller.tokenId,
          requiredScope: tool.scope,
          method: 'MCP',
          path: `stdio:${tool.name}`,
          // What /mcp answers over HTTP: the outcome is in the code, as in the tool's envelope.
          status: 200,
          code,
          message: message.slice(0, 500),
          ip: 'stdio',
          durationMs,
        })
      } catch (error) {
        service.ctx.log.warn('call log write failed', { tool: tool.name, error: String(error) })
      }
    },
    check,
  )
  server.onclose = () => void service.close().then(() => process.exit(tokenGone ? 1 : 0))
  await server.connect(transport)
}

await main()
