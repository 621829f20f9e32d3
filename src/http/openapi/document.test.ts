import { expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { auth } from '../auth.ts'
import { contract } from '../contract.ts'
import { IdParam } from '../schema.ts'
import { openapiDocument } from './document.ts'

const ThingReq = t.Object(
  { name: t.String({ maxLength: 5 }), size: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.Null()])) },
  { $id: 'ThingReq' },
)
const ThingRes = t.Object(
  { id: t.Integer(), parent: t.Union([t.Object({ id: t.Integer() }, { $id: 'ParentRes' }), t.Null()]) },
  { $id: 'ThingRes' },
)

const app = new Elysia()
  .use(auth)
  .post('/api/v1/blog/things/:id', () => null, {
    params: t.Object({ id: IdParam }),
    body: ThingReq,
    headers: t.Object({ 'if-match': t.Optional(t.String({ maxLength: 64 })) }),
    scope: 'blog:write',
    ...contract({
      operationId: 'saveThing',
      summary: 'Save a thing',
      tag: 'posts',
      data: ThingRes,
      refusals: { 412: 'VERSION_MISMATCH: changed since read' },
    }),
  })
  .get('/api/v1/blog/plain/', () => 1)
  .get('/api/admin/blog/secret', () => 1)
type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } }
const doc = openapiDocument(app) as unknown as Doc

test('a route is described from its schemas, its scope and its contract alone', () => {
  const op = doc.paths['/api/v1/blog/things/{id}']!.post
  expect(op).toMatchObject({
    operationId: 'saveThing',
    tags: ['posts'],
    'x-required-scope': 'blog:write',
    security: [{ bearerAuth: [] }, { apiToken: [] }],
  })
  expect(op.parameters).toEqual([
    expect.objectContaining({ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'integer', minimum: 1 }) }),
    expect.objectContaining({ name: 'if-match', in: 'header', required: false, schema: { maxLength: 64, type: 'string' } }),
    // Every POST takes an Idempotency-Key, added once by the generator.
    expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
  ])
  expect(op.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingReq' } } } })
  expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '412', '422', '500'])
  const success = op.responses['200'].content['application/json'].schema.oneOf[0].allOf[1]
  expect(success.properties).toEqual({ code: { type: 'string', enum: ['0000'] }, data: { $ref: '#/components/schemas/ThingRes' } })
})

test('typebox becomes OpenAPI 3.0: integers, nullable with a type, named components by $id', () => {
  expect(doc.components.schemas.ThingReq.properties).toEqual({
    name: { maxLength: 5, type: 'string' },
    size: { minimum: 1, type: 'integer', nullable: true },
  })
  expect(doc.components.schemas.ThingRes.properties.parent).toEqual({
    type: 'object',
    nullable: true,
    allOf: [{ $ref: '#/components/schemas/ParentRes' }],
  })
  expect(doc.components.schemas.ParentRes).toEqual({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } })
})

test('a route without a contract is still described, under "undocumented"; admin paths are not part of the contract', () => {
  expect(doc.paths['/api/v1/blog/plain']!.get.tags).toEqual(['undocumented'])
  expect(Object.keys(doc.paths).some((path) => path.startsWith('/api/admin'))).toBe(false)
})
