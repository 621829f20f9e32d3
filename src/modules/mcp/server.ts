import { Value } from '@sinclair/typebox/value'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { success, type Envelope } from '../../http/envelope.ts'
import { fieldErrors } from '../../http/errors.ts'
import { DomainError, Forbidden, Unauthorized, ValidationFailed } from '../../shared/errors.ts'
import type { Caller } from '../tokens/tokens.ts'
import { TOOLS, type McpServices, type Tool } from './tools.ts'

const INSTRUCTIONS = `Folio publishes a bilingual (en/zh) blog. Publishing order: list_categories / list_tags / list_authors
(save_category / save_tag when one is missing), upload_media for images, optionally search_resources for product cards, save_draft, check_post (only the id checks the stored post), fix every
failed blocking item (each carries a fixAction) with save_draft or autofix_post, then publish_post (or schedule_post). Every tool answers
{code, message, data}: code "0000" is success; any other code is an error whose data says what to fix
(BLOG_SEO_BLOCKED: data.failedItems and data.failures). Times are UTC "YYYY-MM-DD HH:mm:ss".`

const allowed = (tool: Tool, caller: Caller) => tool.scope === null || caller.scopes.has(tool.scope)

/** The answer as the HTTP API would give it: the envelope, as text and as structured content. */
function answer(envelope: Envelope): CallToolResult {
  const structured = envelope as unknown as Record<string, unknown>
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: structured,
    isError: envelope.code !== success(null).code,
  }
}

const refusal = (error: DomainError) => answer({ code: error.code, message: error.message, data: error.data })

async function callTool(services: McpServices, caller: Caller, tool: Tool, args: unknown): Promise<CallToolResult> {
  if (!allowed(tool, caller)) return refusal(new Forbidden(tool.scope!))
  const input = args ?? {}
  if (!Value.Check(tool.input, input)) return refusal(new ValidationFailed(fieldErrors(Value.Errors(tool.input, input), 'arguments')))
  try {
    // Decoding applies the schema's conversions (Elysia's integers also accept digit strings), as the HTTP routes do.
    return answer(success((await tool.run(services, caller, Value.Decode(tool.input, input))) ?? null))
  } catch (error) {
    if (error instanceof DomainError) return refusal(error)
    const requestId = crypto.randomUUID()
    services.ctx.log.error('mcp tool failed', { requestId, tool: tool.name, error: error instanceof Error ? error.stack : String(error) })
    return answer({ code: 'INTERNAL_ERROR', message: `Internal error; quote request id ${requestId}.`, data: { requestId } })
  }
}

/** One tool call as it ended: what the call log keeps of it. */
export interface ToolCall {
  tool: Tool
  code: string
  message: string
  durationMs: number
}

/** Where a session that outlives its token learns it (stdio: the token is read again before every call). */
export interface CallerCheck {
  /** The caller as of now, or null once the token is revoked. */
  current(): Caller | null
  /** Called after the refusal of a call made with a token gone: the session must end. */
  gone(): void
}

/** What a call made after its token was revoked answers: nothing runs, the session ends. */
const TOKEN_GONE = new Unauthorized('The token of this session was revoked or is no longer valid; the session ends.')

/**
 * An MCP server for one caller: it lists only the tools the token's scopes allow and refuses a
 * call to any other. Every tool runs the same verb as its HTTP route. `onCall` hears of every
 * call to a known tool once it is answered (over stdio, the call log: nothing else sees them).
 * With `check`, the token is authenticated again before every tool call, as each HTTP call is.
 */
export function createMcpServer(services: McpServices, caller: Caller, onCall?: (call: ToolCall) => void, check?: CallerCheck): Server {
  const server = new Server({ name: 'folio', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.filter((tool) => allowed(tool, caller)).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      // typebox schemas are JSON Schema; the round trip drops typebox's symbol keys.
      inputSchema: JSON.parse(JSON.stringify(tool.input)),
      annotations: { title: tool.title, readOnlyHint: tool.readOnly ?? false, openWorldHint: false },
    })),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`)
    const current = check ? check.current() : caller
    if (!current) {
      check!.gone()
      return refusal(TOKEN_GONE)
    }
    const started = performance.now()
    const result = await callTool(services, current, tool, request.params.arguments)
    const { code, message } = result.structuredContent as unknown as Envelope
    onCall?.({ tool, code, message, durationMs: Math.round(performance.now() - started) })
    return result
  })
  return server
}
