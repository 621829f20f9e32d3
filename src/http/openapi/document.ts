import { toOpenAPISchema } from '@elysiajs/openapi/openapi'
import type { AnyElysia } from 'elysia'
import {
  contractOf,
  ForbiddenData,
  InternalErrorData,
  RateLimitedData,
  SeoBlockedData,
  ValidationErrorData,
  type RouteContract,
} from '../contract.ts'
import { OK } from '../envelope.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

/** The external contract (spec §4): admin paths and the local media files are not part of it. */
const CONTRACT_PREFIX = '/api/v1/blog/'

const isObject = (node: Json | undefined): node is JsonObject => !!node && typeof node === 'object' && !Array.isArray(node)
const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` })
const typeOf = (value: Json): string =>
  typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : value === null ? 'null' : typeof value

/**
 * The named schemas of the document. A typebox schema carrying `$id` (say `BlogPostRes`) is
 * stored here once under that name and referenced everywhere it appears; two different
 * schemas claiming one name are a programming error, reported at start.
 */
class Components {
  readonly schemas: Record<string, JsonObject> = {}
  private readonly seen = new Map<string, string>()

  add(name: string, schema: Json, convert: (node: Json) => JsonObject): void {
    const text = JSON.stringify(schema)
    const known = this.seen.get(name)
    if (known === text) return
    if (known !== undefined) throw new Error(`OpenAPI: two different schemas are named ${name}`)
    this.seen.set(name, text)
    this.schemas[name] = {} // reserved first, so a recursive schema refers to itself
    this.schemas[name] = convert(schema)
  }
}

/**
 * typebox (and Elysia's extensions of it) speak JSON Schema; OpenAPI 3.0 wants `nullable` with a
 * `type` instead of a null branch, `enum` instead of `const`, and plain integers where Elysia's
 * `t.Integer` also admits a numeric string (a coercion detail of the server, not the contract).
 * A schema may name its documented form outright with `x-oas` (digit strings in paths and
 * queries are documented as the integers they are).
 */
function converter(components: Components) {
  const convert = (input: Json): JsonObject => {
    if (!isObject(input)) return {}
    const { anyOf, const: constant, $id, $ref, 'x-oas': oas, ...rest } = input
    if (isObject(oas)) return { ...(rest.description ? { description: rest.description } : {}), ...oas }
    if (typeof $id === 'string' && !/^T\d+$/.test($id)) {
      components.add($id, { ...rest, ...(anyOf ? { anyOf } : {}), ...(constant !== undefined ? { const: constant } : {}) }, convert)
      return ref($id)
    }
    if (typeof $ref === 'string') return $ref.startsWith('#') ? { $ref } : ref($ref)
    let out: JsonObject = {}
    for (const [key, value] of Object.entries(rest)) {
      if (key === 'default' && value === 'File') continue // Elysia's marker on t.File
      if (key === 'properties' && isObject(value))
        out.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convert(schema)]))
      else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = convert(value)
      else if ((key === 'allOf' || key === 'oneOf') && Array.isArray(value)) out[key] = value.map(convert)
      else out[key] = value
    }
    if (constant !== undefined) out = { ...out, type: typeOf(constant), enum: [constant] }
    if (Array.isArray(out.enum) && out.enum.length) out.type = typeOf(out.enum[0]!)
    if (Array.isArray(anyOf)) out = { ...out, ...union(anyOf) }
    if (out.nullable === true && out.type === undefined) {
      // `nullable` needs a type beside it; a named schema goes behind allOf.
      if (out.$ref) out = { type: 'object', nullable: true, allOf: [{ $ref: out.$ref }], ...without(out, '$ref', 'nullable') }
      else throw new Error(`OpenAPI: a nullable union without a type: ${JSON.stringify(input).slice(0, 200)}`)
    }
    if (out.$ref && Object.keys(out).length > 1) out = { allOf: [{ $ref: out.$ref }], ...without(out, '$ref') }
    // `nullable` does not widen an `enum` (OpenAPI 3.0.3 clarification): null is listed.
    if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
    return out
  }

  function union(anyOf: Json[]): JsonObject {
    const numericString = (b: Json) => isObject(b) && b.type === 'string' && (b.format === 'integer' || b.format === 'numeric')
    const nullable = anyOf.some((b) => isObject(b) && b.type === 'null')
    const branches = anyOf.filter((b) => !(isObject(b) && b.type === 'null') && !numericString(b)).map(convert)
    const flat = branches.flatMap((b) => (b.anyOf && Object.keys(b).length === 1 ? (b.anyOf as JsonObject[]) : [b]))
    const enums = flat.map((b) => (Array.isArray(b.enum) ? b.enum : null))
    let out: JsonObject
    if (flat.length > 1 && enums.every((e) => e !== null)) out = { type: flat[0]!.type ?? null, enum: enums.flat() as Json[] }
    else if (flat.length === 1) out = flat[0]!
    else out = { anyOf: flat }
    return nullable ? { ...out, nullable: true } : out
  }

  return convert
}

/** What each `tag` of a contract groups; a new tag gets its line here. */
const TAGS: Record<string, string> = {
  public: 'Anonymous reads of published content (pre-rendered, revalidate with ETag)',
  posts: 'Drafts, the SEO check and the post lifecycle (token)',
  taxonomy: 'Categories and tags (token)',
  authors: 'Author profiles (token)',
  engagement: 'Claps and comments (anonymous)',
  media: 'Image upload (token)',
  resources: 'Business resources for product cards (token)',
  feeds: 'RSS, sitemap, robots and this description (not in the envelope)',
}

const openapiPath = (path: string) => path.replace(/:([^/]+)/g, '{$1}')

const without = (node: JsonObject, ...keys: string[]): JsonObject =>
  Object.fromEntries(Object.entries(node).filter(([key]) => !keys.includes(key)))

const envelope = (code: Json, data: Json): JsonObject => ({
  allOf: [ref('Result'), { type: 'object', required: ['code', 'data'], properties: { code: code as JsonObject, data } }],
})
const json = (schema: Json) => ({ 'application/json': { schema } })
const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } }
const response = (name: string) => ({ $ref: `#/components/responses/${name}` })

function responsesOf(method: string, contract: RouteContract | undefined, data: JsonObject, scoped: boolean, hasPathParams: boolean) {
  const ok = contract?.raw
    ? contract.raw === 'application/json'
      ? json({ anyOf: [{ type: 'object', description: 'the document' }, ref('PolicyRejection')] })
      : { [contract.raw]: { schema: { type: 'string' } }, ...json(ref('PolicyRejection')) }
    : json({ oneOf: [envelope({ type: 'string', enum: [OK] }, data), ref('PolicyRejection')] })
  const responses: JsonObject = {
    '200': {
      description: contract?.raw
        ? `The document (${contract.raw}); a policy rejection (rate limit) is JSON with a non-0000 \`code\``
        : 'Success (`code` 0000), or a policy rejection (`code` RATE_LIMITED): both are HTTP 200',
      headers: REQUEST_ID,
      content: ok,
    },
  }
  if (contract?.redirect)
    responses['301'] = {
      description: 'An old slug: `Location` names the current one',
      headers: { ...REQUEST_ID, Location: { required: true, schema: { type: 'string' } } },
    }
  if (method === 'get' && !contract?.noStore)
    responses['304'] = { description: 'Not modified (`If-None-Match` / `If-Modified-Since`)', headers: REQUEST_ID }
  responses['400'] = response('BadRequest')
  if (scoped) {
    responses['401'] = response('Unauthorized')
    responses['403'] = response('Forbidden')
  }
  if (hasPathParams) responses['404'] = response('NoRoute')
  if (method === 'post') Object.assign(responses, IDEMPOTENCY_REFUSALS)
  for (const [status, description] of Object.entries(contract?.refusals ?? {}))
    responses[status] = errorResponse(description, { type: 'object', nullable: true })
  responses['500'] = response('InternalError')
  return responses
}

const errorResponse = (description: string, data: Json): JsonObject => ({
  description,
  headers: REQUEST_ID,
  content: json({ allOf: [ref('ErrorResult'), { type: 'object', properties: { data } }] }),
})

/** Every POST takes an `Idempotency-Key` (http/idempotency.ts, docs/agents.md); these are its refusals. */
const IDEMPOTENCY_KEY: JsonObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Retries with the same key, caller and request within 24 h replay the first answer (`Idempotent-Replayed: true`).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
}
const IDEMPOTENCY_REFUSALS: JsonObject = {
  '409': errorResponse('IDEMPOTENCY_KEY_IN_USE: a request with this key is still running', { type: 'object', nullable: true }),
  '422': errorResponse('IDEMPOTENCY_KEY_REUSED: this key was used for a different request', { type: 'object', nullable: true }),
}

/**
 * The OpenAPI 3.0.3 description (spec §9, description version 1.0.0) of every route under
 * `/api/v1/blog/`, generated from the routes themselves: parameters and request bodies from
 * their Elysia schemas (walked by @elysiajs/openapi), names and answers from their `contract()`,
 * security from their `scope`. The envelope, its errors and the policy rejection are added here
 * once, the same for every route.
 */
export function openapiDocument(app: AnyElysia): JsonObject {
  const generated = toOpenAPISchema(app, { staticFile: false, methods: ['options', 'head'] }, undefined, undefined, '3.0.3')
  // Request bodies straight from the routes: the plugin leaves a body out when the route has a
  // parse hook of its own (the `scope` macro notes the scope there), and offers it as form data too.
  const bodies = new Map(
    app.routes.map((route) => [`${route.method.toLowerCase()} ${openapiPath(route.path)}`, route.hooks?.body as unknown]),
  )
  const components = new Components()
  const convert = converter(components)
  const paths: Record<string, JsonObject> = {}
  for (const [generatedPath, item] of Object.entries(generated.paths as Record<string, Record<string, JsonObject>>)) {
    if (!generatedPath.startsWith(CONTRACT_PREFIX)) continue
    const path = generatedPath.replace(/(.)\/$/, '$1')
    for (const [method, operation] of Object.entries(item)) {
      const contract = contractOf(operation)
      const scope = typeof operation['x-required-scope'] === 'string' ? operation['x-required-scope'] : null
      const rename = contract?.pathParams ?? {}
      const parameters = ((operation.parameters ?? []) as JsonObject[]).map((p): JsonObject => ({
        ...p,
        name: (p.in === 'path' && rename[p.name as string]) || p.name || null,
        schema: convert(p.schema ?? null),
      }))
      if (method === 'post') parameters.push(IDEMPOTENCY_KEY)
      const bodySchema = method === 'get' ? undefined : bodies.get(`${method} ${generatedPath}`)
      const bodyJson = bodySchema === undefined ? undefined : convert(JSON.parse(JSON.stringify(bodySchema)) as Json)
      // A body whose every field is optional may be left out altogether (resources/search).
      const named =
        typeof bodyJson?.$ref === 'string' ? components.schemas[bodyJson.$ref.slice(bodyJson.$ref.lastIndexOf('/') + 1)] : bodyJson
      const bodyRequired = Array.isArray(named?.required) && named.required.length > 0
      const multipart = bodySchema !== undefined && JSON.stringify(bodySchema).includes('"format":"binary"')
      const data = contract?.data ? convert(JSON.parse(JSON.stringify(contract.data)) as Json) : {}
      const documented = Object.entries(rename).reduce((p, [from, to]) => p.replace(`{${from}}`, `{${to}}`), path)
      paths[documented] ??= {}
      paths[documented][method] = {
        operationId:
          (operation.operationId as string) ?? `${method}${documented.replace(/\W+(\w)?/g, (_, c: string) => c?.toUpperCase() ?? '')}`,
        summary: contract?.summary ?? `${method.toUpperCase()} ${documented}`,
        ...(contract?.description ? { description: contract.description } : {}),
        tags: [contract?.tag ?? 'undocumented'],
        ...(scope
          ? { security: [{ bearerAuth: [] }, { apiToken: [] }], 'x-required-scope': scope }
          : { security: [{}, { bearerAuth: [] }, { apiToken: [] }] }),
        ...(parameters.length ? { parameters: parameters as unknown as Json } : {}),
        ...(bodyJson
          ? {
              requestBody: {
                required: bodyRequired,
                content: { [multipart ? 'multipart/form-data' : 'application/json']: { schema: bodyJson } },
              },
            }
          : {}),
        responses: responsesOf(
          method,
          contract,
          data,
          scope !== null,
          parameters.some((p) => p.in === 'path'),
        ),
      }
    }
  }
  // The error payloads, named once and referenced by every operation's error answers.
  const errorData = (schema: unknown) => convert(JSON.parse(JSON.stringify(schema)) as Json)
  const badRequestData = { type: 'object', nullable: true, anyOf: [errorData(ValidationErrorData), errorData(SeoBlockedData)] }
  components.schemas.Result = {
    type: 'object',
    description: 'The envelope of every JSON answer (spec §2.1): `code` 0000 is success.',
    required: ['code', 'message', 'data'],
    properties: {
      code: { type: 'string', example: OK },
      message: { type: 'string' },
      data: { description: 'the endpoint-specific payload, or null' },
    },
  }
  components.schemas.ErrorResult = {
    type: 'object',
    description: 'The envelope of a refusal: `code` names it (docs/api.md lists them), `message` says why.',
    required: ['code', 'message', 'data'],
    properties: { code: { type: 'string', example: 'VALIDATION_FAILED' }, message: { type: 'string' }, data: {} },
  }
  components.schemas.PolicyRejection = {
    description: "The spec's policy rejection (§7, §8): HTTP 200 with a non-0000 `code`; read `code`, not the status.",
    allOf: [
      ref('ErrorResult'),
      {
        type: 'object',
        required: ['code', 'data'],
        properties: { code: { type: 'string', enum: ['RATE_LIMITED'] }, data: errorData(RateLimitedData) },
      },
    ],
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Folio blog publishing API',
      version: '1.0.0',
      description:
        'Anonymous public reads, token-protected writes (`Authorization: Bearer` or `X-API-Token`), feeds. Every JSON answer is the envelope `Result` {code, message, data}; `code` 0000 is success.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as JsonObject).tags as string[])))]
      .sort()
      .map((name) => ({ name, description: TAGS[name] ?? 'Routes without a contract() yet' })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, apiToken: { type: 'apiKey', in: 'header', name: 'X-API-Token' } },
      headers: { RequestId: { description: 'Identifies the call in the logs', required: true, schema: { type: 'string' } } },
      responses: {
        BadRequest: errorResponse(
          'Refused input or business rule (VALIDATION_FAILED, INVALID_BODY, PAYLOAD_TOO_LARGE, DUPLICATE_SLUG, BLOG_NOT_FOUND, BLOG_SEO_BLOCKED, MEDIA_*): the fields at fault are in `data.errors`, the failed checks in `data.failedItems`',
          badRequestData,
        ),
        Unauthorized: errorResponse('UNAUTHORIZED: missing, unknown or revoked API token', { type: 'object', nullable: true }),
        Forbidden: errorResponse('FORBIDDEN: the token lacks `data.requiredScope`', errorData(ForbiddenData)),
        NoRoute: errorResponse('NOT_FOUND: the path matches no route (a path parameter that is empty or holds a slash)', {
          type: 'object',
          nullable: true,
        }),
        InternalError: errorResponse('INTERNAL_ERROR: a bug; quote `data.requestId`', errorData(InternalErrorData)),
      },
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  }
}

/** The document as served and pre-rendered. */
export const openapiJson = (app: AnyElysia): string => `${JSON.stringify(openapiDocument(app), null, 2)}\n`
