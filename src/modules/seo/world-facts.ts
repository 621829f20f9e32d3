import { otherLanguage, type Language } from '../../shared/language.ts'
import { autofix, type AutofixOutcome } from './autofix.ts'
import { normalizePost } from './context.ts'
import { check } from './engine.ts'
import { slugOwner, suggestSlug } from './suggestions/slug.ts'
import { isBlank } from './text/units.ts'
import type { SeoCheckResult, SeoInput, SeoWorld, WorldPost } from './types.ts'

type Category = ReturnType<SeoWorld['category']>

/**
 * The world as plain data, for a check that runs where the database is not (a Worker): each
 * question the check asks, with the answer it got. Maps and arrays only, so it survives a
 * structured clone and compares with `Bun.deepEquals`.
 */
export interface WorldFacts {
  siteUrl: string
  mediaUrl: string
  mediaKeys: string[]
  postBySlug: Map<string, WorldPost | undefined>
  postByCurrentSlug: Map<string, WorldPost | undefined>
  authorStatus: Map<number, number | undefined>
  category: Map<number, Category>
}

/** A check or an autofix of `input` against `facts` at `now` (epoch ms): what the SEO pool runs. */
export interface SeoJob {
  task: 'check' | 'autofix'
  input: SeoInput
  facts: WorldFacts
  now: number
}

const slugKey = (language: Language, slug: string) => `${language} ${slug}`

/** A job asked the world a question its facts hold no answer to. */
class FactNotGathered extends Error {}

function answer<K, V>(answers: Map<K, V>, key: K, question: string): V {
  if (!answers.has(key)) throw new FactNotGathered(`SEO world fact not gathered: ${question}; worldFacts() must ask it`)
  return answers.get(key) as V
}

/** A SeoWorld that answers from `facts` and refuses (throws) a question nobody asked beforehand. */
export function factsWorld(facts: WorldFacts): SeoWorld {
  return {
    siteUrl: facts.siteUrl,
    mediaUrl: facts.mediaUrl,
    mediaKeys: new Set(facts.mediaKeys),
    postBySlug: (language, slug) => answer(facts.postBySlug, slugKey(language, slug), `postBySlug(${language}, ${slug})`),
    postByCurrentSlug: (language, slug) =>
      answer(facts.postByCurrentSlug, slugKey(language, slug), `postByCurrentSlug(${language}, ${slug})`),
    authorStatus: (id) => answer(facts.authorStatus, id, `authorStatus(${id})`),
    category: (id) => answer(facts.category, id, `category(${id})`),
  }
}

/** `world`, recording into `facts` every question asked and its answer. */
function recording(world: SeoWorld, facts: WorldFacts): SeoWorld {
  const remember = <K, V>(answers: Map<K, V>, key: K, ask: () => V): V => {
    if (!answers.has(key)) answers.set(key, ask())
    return answers.get(key) as V
  }
  return {
    ...world,
    postBySlug: (language, slug) => remember(facts.postBySlug, slugKey(language, slug), () => world.postBySlug(language, slug)),
    postByCurrentSlug: (language, slug) =>
      remember(facts.postByCurrentSlug, slugKey(language, slug), () => world.postByCurrentSlug(language, slug)),
    authorStatus: (id) => remember(facts.authorStatus, id, () => world.authorStatus(id)),
    category: (id) => remember(facts.category, id, () => world.category(id)),
  }
}

/**
 * What a job on `input` will ask the world, asked now of the live `world` (on the caller's thread,
 * inside its transaction if it has one). The rules ask only about the post's own fields (slug,
 * alternateSlug, authorId, categoryId), never about its body, so the job run on the post without
 * its body asks the same questions at a small, bounded cost; the body's text passes are left to
 * the job itself. A rule that broke this would meet factsWorld's refusal in every test.
 */
export function worldFacts(task: SeoJob['task'], input: SeoInput, world: SeoWorld, now: Date): WorldFacts {
  const facts = noFacts(world)
  runSeoJob({ task, input: { ...input, contentHtml: '' }, facts, now: now.getTime() }, recording(world, facts))
  return facts
}

const noFacts = (world: SeoWorld): WorldFacts => ({
  siteUrl: world.siteUrl,
  mediaUrl: world.mediaUrl,
  mediaKeys: [...world.mediaKeys],
  postBySlug: new Map(),
  postByCurrentSlug: new Map(),
  authorStatus: new Map(),
  category: new Map(),
})

/**
 * The questions a check or an autofix of `input` asks, asked straight, without running a rule
 * (worldFacts runs them all, which made every import post's rules run twice: here, then on the
 * thread): the suggested slug's chain (suggestSlug), the owner of the slug the post will have
 * (duplicate_slug), its translation's pair (hreflang_pair), its author's status (author_present)
 * and its category's names (the SEO title suggestion). Autofix changes none of the fields these
 * read but the slug, which it sets to the suggestion already asked about. A question this misses is
 * refused inside the job (runAnswered answers null) and the caller gathers worldFacts instead: a
 * miss costs time, never a different answer.
 */
export function likelyFacts(input: SeoInput, world: SeoWorld): WorldFacts {
  const facts = noFacts(world)
  const asking = recording(world, facts)
  const post = normalizePost(input)
  const generatedSlug = suggestSlug(post, asking)
  slugOwner(isBlank(post.slug) ? generatedSlug : post.slug, post, asking)
  const alternate = post.alternateSlug.trim()
  if (alternate) asking.postByCurrentSlug(otherLanguage(post.language), alternate)
  if (post.authorId !== null) asking.authorStatus(post.authorId)
  asking.category(post.categoryId)
  return facts
}

/** A job on its facts, or null when it asked a question they do not answer (likelyFacts missed it). */
export function runAnswered(job: SeoJob): SeoCheckResult | AutofixOutcome | null {
  try {
    return runSeoJob(job)
  } catch (error) {
    if (error instanceof FactNotGathered) return null
    throw error
  }
}

/**
 * Whether `world` gives every answer in `facts` again. A check is a function of its input and
 * the answers it gets, so a job on the same input against such a world asks the same questions
 * and gathers equal facts: what `worldFacts` would find, without running the rules again.
 */
export function factsHold(facts: WorldFacts, world: SeoWorld): boolean {
  const still = <K, V>(answers: Map<K, V>, ask: (key: K) => V) => {
    for (const [key, answer] of answers) if (!Bun.deepEquals(ask(key), answer, true)) return false
    return true
  }
  const bySlug = (ask: (language: Language, slug: string) => WorldPost | undefined) => (key: string) => {
    const space = key.indexOf(' ')
    return ask(key.slice(0, space) as Language, key.slice(space + 1))
  }
  return (
    world.siteUrl === facts.siteUrl &&
    world.mediaUrl === facts.mediaUrl &&
    Bun.deepEquals([...world.mediaKeys], facts.mediaKeys, true) &&
    still(facts.postBySlug, bySlug(world.postBySlug)) &&
    still(facts.postByCurrentSlug, bySlug(world.postByCurrentSlug)) &&
    still(facts.authorStatus, world.authorStatus) &&
    still(facts.category, world.category)
  )
}

/** Runs a job; the world defaults to its facts (a Worker has nothing else). */
export function runSeoJob(job: SeoJob, world: SeoWorld = factsWorld(job.facts)): SeoCheckResult | AutofixOutcome {
  const now = new Date(job.now)
  return job.task === 'autofix' ? autofix(job.input, world, now) : check(job.input, world, now)
}
