import { afterAll, beforeAll, expect } from 'bun:test'
import { startFolio, type ApiResponse, type Folio } from '../support/folio.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { WAIT_LIMIT_MS } from '../support/until.ts'

/** The fields of `BlogPublicCommentRes` (spec §2.9), and nothing else. */
export const PUBLIC_COMMENT_FIELDS = ['authorName', 'content', 'createTime', 'id', 'parentId', 'postId', 'status', 'statusText']

export function expectPublicComment(comment: Record<string, unknown>): void {
  expect(Object.keys(comment).sort()).toEqual(PUBLIC_COMMENT_FIELDS)
}

/** The private details a commenter sends; no public response may ever contain them. */
export const SECRET_EMAIL = 'private.reader@example.org'
export const SECRET_AGENT = 'FolioTestAgent/9.9 (secret-agent-marker)'

export function expectNoPrivateData(res: ApiResponse, ip: string): void {
  for (const secret of [SECRET_EMAIL, SECRET_AGENT, ip, 'spamReason', 'authorEmail', 'userAgent', 'postTitle'])
    expect(res.text).not.toContain(secret)
}

let ipCounter = 0
/** A client address of its own (the suites' server trusts X-Forwarded-For from loopback, as behind Caddy), so per-IP rules of one test never touch another. */
export const freshIp = () => {
  ipCounter++
  return `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`
}

export interface EngagementWorld {
  folio: Folio
  /** write + publish + admin */
  admin: string
  categoryId: number
  authorId: number
  /** A published post to engage with. */
  post: { id: number; slug: string }
  publishPost(overrides?: Record<string, unknown>): Promise<{ id: number; slug: string }>
  comment(postId: number, body: unknown, ip?: string): Promise<ApiResponse>
  clap(postId: number, body: unknown, idempotencyKey?: string): Promise<ApiResponse>
  engagement(postId: number): Promise<ApiResponse>
  moderate(commentId: number, action: string, token?: string): Promise<ApiResponse>
  /** An approved comment on the post. */
  approvedComment(postId: number, body?: Record<string, unknown>): Promise<number>
}

/**
 * The pre-rendered post detail (which the API itself serves when it exists) refreshes its counts
 * on a schedule, not per event; the suites shorten it to a second and wait for it, bounded.
 */
export async function publicDetail(folio: Folio, slug: string, settled: (post: any) => boolean): Promise<ApiResponse> {
  const deadline = Date.now() + WAIT_LIMIT_MS
  for (;;) {
    const res = await folio.call('GET', `/api/v1/blog/posts/${slug}`)
    if (settled(res.body.data) || Date.now() > deadline) return res
    await Bun.sleep(100)
  }
}

/** The real server, with the count refresh shortened to a second. */
export async function startEngagementWorld(): Promise<EngagementWorld> {
  const folio = await startFolio({ ENGAGEMENT_REFRESH_SECONDS: '1', TRUST_PROXY: '1' })
  const admin = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId } = await seedTaxonomy(folio, admin)
  const world: EngagementWorld = {
    folio,
    admin,
    categoryId,
    authorId,
    post: { id: 0, slug: '' },
    async publishPost(overrides = {}) {
      const post = await publishNewPost(folio, admin, publishablePost(categoryId, authorId, overrides))
      return { id: post.id, slug: post.slug }
    },
    comment: (postId, body, ip = freshIp()) =>
      folio.call('POST', `/api/v1/blog/posts/${postId}/comments`, { body, headers: { 'x-forwarded-for': ip, 'user-agent': SECRET_AGENT } }),
    clap: (postId, body, idempotencyKey) =>
      folio.call('POST', `/api/v1/blog/posts/${postId}/reactions`, {
        body,
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
      }),
    engagement: (postId) => folio.call('GET', `/api/v1/blog/posts/${postId}/engagement`),
    moderate: (commentId, action, token = admin) =>
      folio.call('POST', `/api/admin/blog/comments/${commentId}/moderate`, { token, body: { action } }),
    async approvedComment(postId, body = {}) {
      const posted = await world.comment(postId, { authorName: 'Reader', content: `A kind word ${crypto.randomUUID()}`, ...body })
      if (posted.body?.code !== '0000') throw new Error(`comment failed: ${posted.text}`)
      const approved = await world.moderate(posted.body.data.id, 'approve')
      if (approved.body?.code !== '0000') throw new Error(`approve failed: ${approved.text}`)
      return posted.body.data.id
    },
  }
  world.post = await world.publishPost()
  return world
}

/** One server for the test file: started before its tests, disposed after them. */
export function useEngagementWorld(): EngagementWorld {
  const world = {} as EngagementWorld
  beforeAll(async () => void Object.assign(world, await startEngagementWorld()))
  afterAll(() => world.folio.dispose())
  return world
}

/** A 400 in the envelope naming `field`. */
export function expectFieldError(res: ApiResponse, field: string): void {
  expect(res.status).toBe(400)
  expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field)
}
