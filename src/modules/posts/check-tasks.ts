import type { Logger } from '../../shared/log.ts'
import { sanitizeContentHtml } from '../../shared/sanitize.ts'
import { createPool, inProcess, type TaskRunner } from '../seo/pool.ts'
import type { AutofixOutcome } from '../seo/autofix.ts'
import { mediaKeysOf } from '../seo/index.ts'
import type { SeoCheckResult, SeoInput } from '../seo/types.ts'
import { runAnswered, runSeoJob, type SeoJob } from '../seo/world-facts.ts'
import { bodyHtmlOf, preparedBody, prepareContent } from './content.ts'

type Body = { contentHtml?: string; contentMarkdown?: string }

/**
 * The passes over a post's text and HTML that a check or a save makes: pure functions of plain
 * data, so the SEO pool (seo/pool.ts, SEO_WORKERS) runs them on its threads, off the request
 * thread. Everything they need from the database or the media store is read before, as data.
 */
export const CHECK_TASKS = {
  /** The body a check judges: the HTML sent, or the Markdown converted, sanitized. */
  checkedBody: (body: Body): string => sanitizeContentHtml(bodyHtmlOf(body)),
  /** The body a save stores (content.ts). */
  storedBody: (body: Body) => prepareContent(bodyHtmlOf(body)),
  /**
   * An imported post's stored body and the media keys of it with its images (one trip to a thread
   * where storedBody and mediaKeys would take two; import/posts.ts).
   */
  importedBody: ({
    contentHtml,
    images,
    mediaUrl,
  }: {
    contentHtml: string
    images: Pick<SeoInput, 'coverImage' | 'ogImage'>
    mediaUrl: string
  }) => {
    const { mediaUrls, ...body } = preparedBody(contentHtml)
    return { ...body, mediaKeys: mediaKeysOf({ ...images, contentHtml: body.contentHtml } as SeoInput, mediaUrl, mediaUrls) }
  },
  /** The media keys broken_media_url will ask about, for the caller to look up in the store. */
  mediaKeys: ({ input, mediaUrl }: { input: SeoInput; mediaUrl: string }): string[] => mediaKeysOf(input, mediaUrl),
  check: (job: Omit<SeoJob, 'task'>) => runSeoJob({ ...job, task: 'check' }) as SeoCheckResult,
  autofix: (job: Omit<SeoJob, 'task'>) => runSeoJob({ ...job, task: 'autofix' }) as AutofixOutcome,
  /** A job on likelyFacts: its result, or null when it needed a fact they lack (posts/seo.ts gathers them all then). */
  answered: (job: SeoJob) => runAnswered(job),
}
export type CheckTasks = typeof CHECK_TASKS

/**
 * The check's runner: SEO_WORKERS threads (check-thread.ts), or this thread when there are none.
 * `timeoutMs`: how long one job may run before its thread is replaced (the pool's default bounds a request);
 * `perThread`: jobs handed to a thread at once (an import keeps its threads fed while it writes).
 */
export const checkRunner = (threads: number, log: Logger, timeoutMs?: number, perThread?: number): TaskRunner<CheckTasks> =>
  threads > 0
    ? createPool<CheckTasks>({ size: threads, entry: new URL('./check-thread.ts', import.meta.url), timeoutMs, perThread }, log)
    : inProcess(CHECK_TASKS)
