import { t, type Static, type TSchema } from 'elysia'
import type { Ctx } from '../../context.ts'
import { Id, Language } from '../../http/schema.ts'
import { listEnabledAuthors } from '../authors/authors.ts'
import { autofixPost } from '../posts/autofix.ts'
import { checkPostFields } from '../posts/check.ts'
import { PostSaveReq, PreviewReq, ScheduleReq, SeoCheckReq } from '../posts/model.ts'
import { toWriterPostRes } from '../posts/present.ts'
import { createPreview } from '../posts/preview.ts'
import { livePost } from '../posts/repo.ts'
import { savePost } from '../posts/save.ts'
import { schedulePost } from '../posts/schedule.ts'
import { publishPost, takeOffline } from '../posts/status.ts'
import { ResourceSearchReq } from '../resources/model.ts'
import { SearchQuery, searchPosts } from '../search/routes.ts'
import { searchResources } from '../resources/catalogue.ts'
import { listEnabledCategories, saveCategory } from '../taxonomy/categories.ts'
import { CategoryReq, TagLanguage, TagReq } from '../taxonomy/model.ts'
import { listEnabledTags, saveTag } from '../taxonomy/tags.ts'
import type { Scope } from '../tokens/scopes.ts'
import type { Caller } from '../tokens/tokens.ts'

/** What the tools act through: the same context and verbs the HTTP routes use. */
export interface McpServices {
  ctx: Ctx
  /** The media upload verb over the configured store; answers the public URL. */
  uploadMedia(bytes: Uint8Array): Promise<string>
}

/**
 * One MCP tool: its input schema (typebox, so it is also the JSON Schema clients see), the
 * scope a token needs to see and call it (null: any valid token, like the anonymous reads),
 * and the verb it runs. Adding a tool is one more entry in TOOLS.
 */
export interface Tool<S extends TSchema = TSchema> {
  name: string
  title: string
  description: string
  scope: Scope | null
  input: S
  readOnly?: boolean
  run(services: McpServices, caller: Caller, input: Static<S>): unknown
}

const tool = <S extends TSchema>(definition: Tool<S>): Tool => definition as unknown as Tool

const ById = t.Object({ id: Id })

/** A stored post as the write verbs answer it (schedule included), after `verb` ran. */
const afterVerb = async (ctx: Ctx, id: number, verb: Promise<unknown>) => {
  await verb
  return toWriterPostRes(ctx.db, livePost(ctx.db, id))
}

/** The publishing order of spec §1, as tools. */
export const TOOLS: readonly Tool[] = [
  tool({
    name: 'list_categories',
    title: 'List categories',
    description: 'Enabled categories (id, names, slug). Every post needs a categoryId.',
    scope: null,
    input: t.Object({}),
    readOnly: true,
    run: ({ ctx }) => listEnabledCategories(ctx.db),
  }),
  tool({
    name: 'list_tags',
    title: 'List tags',
    description: 'Enabled tags, optionally of one language (en, zh, all). Use their ids in tagIds.',
    scope: null,
    input: t.Object({ language: t.Optional(TagLanguage) }),
    readOnly: true,
    run: ({ ctx }, _caller, input) => listEnabledTags(ctx.db, input.language),
  }),
  tool({
    name: 'list_authors',
    title: 'List authors',
    description: 'Enabled authors, optionally of one language. Use their id as authorId.',
    scope: null,
    input: t.Object({ language: t.Optional(Language) }),
    readOnly: true,
    run: ({ ctx }, _caller, input) => listEnabledAuthors(ctx.db, input.language),
  }),
  tool({
    name: 'save_category',
    title: 'Save a category',
    description: 'Creates a category (no id) or updates one; a blank slug is generated (Chinese names get pinyin). Answers it with its id.',
    scope: 'blog:write',
    input: CategoryReq,
    run: ({ ctx }, _caller, input) => saveCategory(ctx, input),
  }),
  tool({
    name: 'save_tag',
    title: 'Save a tag',
    description: 'Creates a tag (no id) or updates one, for one language or all. Answers it with its id for tagIds.',
    scope: 'blog:write',
    input: TagReq,
    run: ({ ctx }, _caller, input) => saveTag(ctx, input),
  }),
  tool({
    name: 'upload_media',
    title: 'Upload an image',
    description:
      'Stores an image (webp, avif, jpeg, png, gif; type detected from the bytes) sent as base64 and answers its public URL: use it as-is in coverImage, ogImage or an <img src>.',
    scope: 'blog:write',
    input: t.Object({ contentBase64: t.String({ minLength: 1, pattern: '^[A-Za-z0-9+/=\\s]+$', description: 'the file, base64' }) }),
    run: ({ uploadMedia }, _caller, input) => uploadMedia(Buffer.from(input.contentBase64, 'base64')),
  }),
  tool({
    name: 'search_resources',
    title: 'Search business resources',
    description: 'Finds products by keywords; each result carries ready-made cardHtml (en/zh) to insert and an id for relatedProductIds.',
    scope: 'blog:read',
    input: ResourceSearchReq,
    readOnly: true,
    run: ({ ctx }, _caller, input) => searchResources(ctx.db, input),
  }),
  tool({
    name: 'search_posts',
    title: 'Search published posts',
    description:
      'Published posts whose title, summary, slug or body hold every word of q (Chinese needs no spaces), most relevant first: find what the blog already says before writing, and posts to link to.',
    scope: null,
    input: SearchQuery,
    readOnly: true,
    run: ({ ctx }, _caller, input) => searchPosts(ctx.db, input),
  }),
  tool({
    name: 'check_post',
    title: 'Run the SEO check',
    description:
      'The SEO/AEO check of a draft (nothing is saved). With id, the fields sent are laid over the stored post. Read canPublish, and for each failed item its fixAction (what to change) and autoFixType.',
    scope: 'blog:write',
    // Every field optional: with only an id the stored post is checked as it is.
    input: t.Partial(SeoCheckReq),
    readOnly: true,
    run: ({ ctx }, _caller, input) => checkPostFields(ctx, input),
  }),
  tool({
    name: 'save_draft',
    title: 'Save a post',
    description:
      'Creates a draft (no id) or updates a post (id; absent optional fields keep their stored value). A published post stays published only if it still passes the SEO gate. Publish with publish_post.',
    scope: 'blog:write',
    input: t.Omit(PostSaveReq, ['status']),
    run: ({ ctx }, caller, input) => savePost(ctx, caller, input),
  }),
  tool({
    name: 'autofix_post',
    title: 'Apply the automatic fixes',
    description:
      "Applies every autoFixType suggestion of the stored post's check (slug, SEO title and description, canonical, cover alt) and saves it as a new version; answers the fixes applied, the new check and the post. Never makes a passing check fail.",
    scope: 'blog:write',
    input: ById,
    run: ({ ctx }, caller, input) => autofixPost(ctx, input.id, caller),
  }),
  tool({
    name: 'read_post',
    title: 'Read a post',
    description: 'The stored state of a post by id, draft or not, with its seoScore, status and schedule.',
    scope: 'blog:write',
    input: ById,
    readOnly: true,
    run: ({ ctx }, _caller, input) => toWriterPostRes(ctx.db, livePost(ctx.db, input.id)),
  }),
  tool({
    name: 'preview_post',
    title: 'Preview a post',
    description:
      'A signed URL through which anyone can read the post as stored right now, draft or not, until it expires (expiresIn seconds, default 3600, at most 604800).',
    scope: 'blog:write',
    input: t.Object({ id: Id, ...PreviewReq.properties }),
    run: ({ ctx }, _caller, { id, ...req }) => createPreview(ctx, id, req),
  }),
  tool({
    name: 'publish_post',
    title: 'Publish a post',
    description:
      'Publishes a saved post after re-running the SEO check. When blocking checks fail the answer is BLOG_SEO_BLOCKED with data.failedItems and data.failures (each with its fixAction); fix them with save_draft and try again.',
    scope: 'blog:publish',
    input: ById,
    run: ({ ctx }, _caller, input) => publishPost(ctx, input.id),
  }),
  tool({
    name: 'schedule_post',
    title: 'Schedule publishing',
    description:
      'Publishes the post at publishAt and/or takes it offline at unpublishAt (UTC, "YYYY-MM-DD HH:mm:ss"; null cancels). At publishAt the SEO gate runs again; if it blocks, the post stays a draft and the schedule is cleared.',
    scope: 'blog:publish',
    input: t.Object({ id: Id, ...ScheduleReq.properties }),
    run: ({ ctx }, _caller, { id, ...req }) => schedulePost(ctx, id, req),
  }),
  tool({
    name: 'unpublish_post',
    title: 'Take a post offline',
    description: 'Takes a published post offline (status 2); it keeps its SEO history and can be published again.',
    scope: 'blog:publish',
    input: ById,
    run: ({ ctx }, _caller, input) => afterVerb(ctx, input.id, takeOffline(ctx, input.id)),
  }),
]
