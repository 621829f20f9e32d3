import { Elysia } from 'elysia'
import { callOf } from '../../http/call.ts'
import { Unauthorized } from '../../shared/errors.ts'
import type { McpServices } from './tools.ts'

export const MCP_PATH = '/mcp'

/**
 * Says the credential is a bearer token: an MCP client that gets a 401 without it looks for
 * OAuth metadata and starts an authorization flow Folio does not offer.
 */
const challenge = (tokenPresented: boolean) => ({
  'www-authenticate': tokenPresented ? 'Bearer realm="folio", error="invalid_token"' : 'Bearer realm="folio"',
})

const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST.' },
  id: null,
}

/**
 * MCP over Streamable HTTP at `/mcp` (docs/agents.md "MCP"): stateless, one server per request
 * for the caller the shell authenticated (the same API tokens, Bearer or X-API-Token), answers
 * as plain JSON. The body is left unparsed: the SDK's transport reads it, up to `maxRequestBytes`,
 * the shell's own bound for this path (an upload_media of MAX_UPLOAD_BYTES as base64, plus JSON):
 * the SDK's default of 4 MiB answered a bare 413 below the documented upload limit, and a body
 * over the bound is answered by the shell in the envelope (PAYLOAD_TOO_LARGE) before it gets here.
 */
export const mcpRoutes = (services: McpServices, maxRequestBytes: number) =>
  new Elysia({ name: 'mcp' }).all(
    MCP_PATH,
    async ({ request }) => {
      const { caller, tokenPresented } = callOf(request)
      if (!caller)
        throw new Unauthorized(tokenPresented ? 'Invalid or revoked API token.' : 'Missing API token.', challenge(tokenPresented))
      // Stateless: no stream to open with GET and no session to end with DELETE (the SDK's stateless example does the same).
      if (request.method !== 'POST') return Response.json(METHOD_NOT_ALLOWED, { status: 405, headers: { allow: 'POST' } })
      // The MCP SDK (with zod and ajv: some 230 modules, ~140 ms of CPU) loads with the first MCP
      // request rather than at every start of the server and the CLI (docs/benchmarks.md, "CLI start").
      const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
        import('./server.ts'),
      ])
      const server = createMcpServer(services, caller)
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: maxRequestBytes,
      })
      await server.connect(transport)
      try {
        return await transport.handleRequest(request)
      } finally {
        await server.close()
      }
    },
    { parse: 'none' },
  )
