import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { ConfigError, loadConfig } from './config.ts'
import { compose } from './main.ts'
import { createMcpServer } from './modules/mcp/server.ts'
import { authenticate } from './modules/tokens/tokens.ts'
import { createLogger } from './shared/log.ts'

/**
 * `npm run --silent mcp`: the MCP server over stdio for a desktop assistant. Like the admin CLI it
 * opens the service's own database and runs the same verbs in-process (no HTTP hop, no second
 * implementation); FOLIO_TOKEN decides which tools it offers. Stdout carries the protocol only:
 * logs go to stderr. Scheduled transitions and webhook deliveries stay with the running server.
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
  const server = createMcpServer(service.mcp, caller)
  server.onclose = () => void service.close().then(() => process.exit(0))
  await server.connect(new StdioServerTransport())
}

await main()
