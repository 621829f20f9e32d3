import { gzipSync } from 'node:zlib'
import { migrateDatabase, openDatabase } from '../src/db/client.ts'
import { categories, posts } from '../src/db/schema/index.ts'
import { listPublicPosts } from '../src/modules/posts/public.ts'
import { catchUpSearchIndex } from '../src/modules/search/fts.ts'
import { queryTerms } from '../src/modules/search/tokens.ts'
import { siteSearchArtifacts, type SearchArtifact } from '../src/modules/site-search/index.tsx'
import { bucketOf, segmentOf } from '../src/modules/site-search/shards.ts'
import type { Change } from '../src/shared/changes.ts'

// Search (docs/benchmarks.md, "Search"; docs/search.md): the FTS5 index and the site's static
// index at N posts (default 10,000, half English, half Chinese): index size per post, query time
// against the LIKE scan the keyword filter used alone (baseline), bytes a static query fetches,
// the per-publish cost of the static index against rendering the whole index (baseline), and
// precision/recall of bigrams against Intl.Segmenter words on a written set of queries.
const N = Number(process.argv[2] ?? 10_000)

let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
// Vocabularies shaped like real text: a few common words, a long tail (Zipf-like picks), the
// queries' words planted among them.
const SYLLABLES = 'ka ro mi ten sul ba dre fo lin qua set vor pel ni tu gra mon esk'.split(' ')
const HAN =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理世车'
const EN = Array.from(
  { length: 6000 },
  (_, i) => SYLLABLES[i % 18]! + SYLLABLES[Math.floor(i / 18) % 18]! + (i >= 324 ? SYLLABLES[Math.floor(i / 324) % 18]! : ''),
)
const ZH = Array.from({ length: 6000 }, (_, i) => HAN[i % HAN.length]! + HAN[(i * 7 + 3) % HAN.length]!)
const PLANTED_EN = 'sqlite static generator caddy cache webhook rank'.split(' ')
const PLANTED_ZH = '数据库 管理员 图书馆 静态网站'.split(' ')
const zipf = <T>(list: readonly T[]) => list[Math.floor(list.length * random() ** 3)]!
const words = (list: readonly string[], planted: readonly string[], n: number, sep: string) =>
  Array.from({ length: n }, () => (random() < 0.01 ? pick(planted) : zipf(list))).join(sep)

const db = openDatabase(':memory:')
migrateDatabase(db)
const [category] = db.insert(categories).values({ slug: 'notes', nameEn: 'Notes' }).returning().all()
const rows = Array.from({ length: N }, (_, i) => {
  const zh = i % 2 === 1
  const body = zh ? words(ZH, PLANTED_ZH, 1200, random() < 0.1 ? '，' : '') : words(EN, PLANTED_EN, 800, ' ')
  return {
    language: zh ? ('zh' as const) : ('en' as const),
    slug: `post-${i}`,
    title: zh ? words(ZH, PLANTED_ZH, 8, '') : words(EN, PLANTED_EN, 7, ' '),
    summary: zh ? words(ZH, PLANTED_ZH, 30, '') : words(EN, PLANTED_EN, 25, ' '),
    contentHtml: `<p>${body}</p>`,
    contentText: body,
    categoryId: category!.id,
    status: 1,
    publishedAt: `2026-01-01 ${String(i % 24).padStart(2, '0')}:00:00`,
  }
})
for (let i = 0; i < rows.length; i += 500)
  db.insert(posts)
    .values(rows.slice(i, i + 500))
    .run()

const time = <T>(work: () => T): [T, number] => {
  const started = performance.now()
  const value = work()
  return [value, performance.now() - started]
}
const pages = (name: string) =>
  (db.$client.query(`SELECT sum(pgsize) AS b FROM dbstat WHERE name LIKE ?`).get(name) as { b: number | null }).b ?? 0

// 1. Index every post (what the start does after the upgrade), and its size.
const [, indexMs] = time(() => catchUpSearchIndex(db))
const textBytes = rows.reduce((sum, r) => sum + Buffer.byteLength(r.title + r.summary + r.contentText), 0)
console.log(`posts ${N}; their text ${(textBytes / N / 1024).toFixed(1)} KiB per post`)
console.log(`FTS5 indexing: ${(indexMs / N).toFixed(2)} ms per post (${(indexMs / 1000).toFixed(1)} s in all)`)
try {
  const state = pages('post_search_state')
  const fts = pages('post_search%') - state
  console.log(
    `FTS5 index ${(fts / N / 1024).toFixed(2)} KiB per post, terms table ${(state / N / 1024).toFixed(2)} KiB per post (text ×${(textBytes / fts).toFixed(2)} the index)`,
  )
} catch {
  console.log('FTS5 size: dbstat is not compiled into this SQLite')
}

// 2. Query time: FTS5 search and the ranked keyword filter against the LIKE-only scan of the same words (baseline).
const QUERIES = ['sqlite', 'static generator', 'caddy cache', '数据', '管理', '书馆', '静态网站', 'webhook rank', EN[40]!, ZH[40]!]
const mean = (work: (q: string) => unknown) => {
  const [, ms] = time(() => {
    for (let round = 0; round < 5; round++) for (const q of QUERIES) work(q)
  })
  return ms / (5 * QUERIES.length)
}
// The baseline does what a list does: counts the matches and reads the first page.
const likeWhere = `listed = 1 AND (title LIKE ?1 OR summary LIKE ?1 OR content_text LIKE ?1)`
const likeCount = db.$client.query(`SELECT count(*) FROM posts WHERE ${likeWhere}`)
const likePage = db.$client.query(`SELECT id FROM posts WHERE ${likeWhere} ORDER BY published_at DESC, id DESC LIMIT 10`)
const baseline = mean((q) => [likeCount.get(`%${q}%`), likePage.all(`%${q}%`)])
const fts = mean((q) => listPublicPosts(db, { search: q, current: 1, size: 10 }))
const keyword = mean((q) => listPublicPosts(db, { keyword: q, current: 1, size: 10 }))
console.log(`query (mean of ${QUERIES.length} en/zh queries): LIKE scan of title+summary+body (baseline) ${baseline.toFixed(1)} ms`)
console.log(`  GET search (FTS5, bm25, total counted) ${fts.toFixed(1)} ms = ${(fts / baseline).toFixed(2)}× baseline`)
console.log(`  GET posts?keyword (substring OR words, ranked) ${keyword.toFixed(1)} ms = ${(keyword / baseline).toFixed(2)}× baseline`)

// 3. The static index: everything, then one publish's share, rendered as the engine renders them.
const kind = siteSearchArtifacts({ siteUrl: 'https://blog.example.org', script: '' })
const every = kind.every(db).filter((a) => a.kind !== 'search.page')
const [all, allMs] = time(() => kind.render(db, every))
const bytes = (files: (string | null)[]) => files.reduce((sum, f) => sum + (f ? Buffer.byteLength(f) : 0), 0)
const gzipped = (files: (string | null)[]) => files.reduce((sum, f) => sum + (f ? gzipSync(f).length : 0), 0)
console.log(
  `static index: ${all.filter(Boolean).length} files, ${(bytes(all) / N / 1024).toFixed(2)} KiB per post (${(gzipped(all) / N / 1024).toFixed(2)} KiB gzipped); whole render ${allMs.toFixed(0)} ms (baseline)`,
)
const last = db.select().from(posts).all().at(-1)!
const change: Change = { kind: 'post', event: 'blog.post.published', before: null, after: last }
const planned = db.transaction((tx) => kind.plan(tx, change, []) as SearchArtifact[])
const [one, oneMs] = time(() => kind.render(db, planned))
console.log(
  `one publish at ${N} posts: ${planned.length} files planned (${one.filter(Boolean).length} exist), ${(bytes(one) / 1024).toFixed(0)} KiB, ${oneMs.toFixed(0)} ms = ${(oneMs / allMs).toFixed(3)}× the whole index`,
)
// What a reader's query downloads: per segment of its language, one bucket per token (gzip, as Caddy serves them).
const files = new Map(every.map((a, i) => [JSON.stringify(a), all[i]]))
for (const q of ['static generator', '数据']) {
  const language = /\p{Script=Han}/u.test(q) ? 'zh' : 'en'
  const manifest = JSON.parse(files.get(JSON.stringify({ kind: 'search.manifest', language }))!) as { segments: number[] }
  const tokens = [...new Set(queryTerms(q).flatMap((t) => t.tokens))]
  let fetched = 0
  for (const segment of manifest.segments)
    for (const bucket of new Set(tokens.map(bucketOf))) {
      const file = files.get(JSON.stringify({ kind: 'search.bucket', language, segment, bucket }))
      if (file) fetched += gzipSync(file).length
    }
  console.log(
    `static query "${q}": ${manifest.segments.length} segments, ${(fetched / 1024).toFixed(0)} KiB gzipped fetched (segment of the newest post: ${segmentOf(last.id)})`,
  )
}

// 4. Precision and recall on written queries: the FTS5 index (bigrams) against Intl.Segmenter words
// (each query word must be one of the document's words), over the same written documents.
const CORPUS: [slug: string, language: 'en' | 'zh', text: string][] = [
  ['db-admin', 'zh', '数据库管理员每天检查备份和恢复流程'],
  ['data-analysis', 'zh', '用数据分析读者的阅读习惯'],
  ['library', 'zh', '在图书馆里学习静态网站生成器'],
  ['bookstore', 'zh', '这家书店的书架上有很多网站设计的书'],
  ['kimono', 'zh', '和服是日本的传统服装'],
  ['waiter', 'zh', '我和服务员聊了聊这家餐厅'],
  ['search-engine', 'zh', '搜索引擎如何理解中文分词'],
  ['manager', 'zh', '产品经理和项目管理的区别'],
  ['sqlite', 'en', 'SQLite full-text search with FTS5 and bm25 ranking'],
  ['caddy', 'en', 'Serving static files with Caddy and precompressed copies'],
  ['generators', 'en', 'Choosing a static site generator for a bilingual blog'],
  ['webhooks', 'en', 'Retrying webhooks with a durable queue in SQLite'],
]
const WRITTEN: [query: string, language: 'en' | 'zh', relevant: string[]][] = [
  ['数据', 'zh', ['db-admin', 'data-analysis']],
  ['管理', 'zh', ['db-admin', 'manager']],
  ['书馆', 'zh', ['library']],
  ['网站', 'zh', ['library', 'bookstore']],
  ['和服', 'zh', ['kimono']],
  ['服务', 'zh', ['waiter']],
  ['分词', 'zh', ['search-engine']],
  ['静态网站', 'zh', ['library']],
  ['sqlite', 'en', ['sqlite', 'webhooks']],
  ['static', 'en', ['caddy', 'generators']],
  ['durable queue', 'en', ['webhooks']],
  ['ranking', 'en', ['sqlite']],
]
const small = openDatabase(':memory:')
migrateDatabase(small)
const [notes] = small.insert(categories).values({ slug: 'notes', nameEn: 'Notes' }).returning().all()
small
  .insert(posts)
  .values(
    CORPUS.map(([slug, language, text]) => ({
      slug,
      language,
      title: text,
      contentHtml: `<p>${text}</p>`,
      contentText: text,
      categoryId: notes!.id,
      status: 1,
      publishedAt: '2026-01-01 00:00:00',
    })),
  )
  .run()
catchUpSearchIndex(small)
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })
const segmented = (text: string) => [...segmenter.segment(text.toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment)
const bySegmenter = (query: string, language: string) =>
  CORPUS.filter(([, l, text]) => l === language && segmented(query).every((w) => segmented(text).includes(w))).map(([slug]) => slug)
const byIndex = (query: string, language: 'en' | 'zh') =>
  listPublicPosts(small, { search: query, language, current: 1, size: 50 }).records.map((r) => r.slug)
for (const [name, method] of [
  ['bigrams (FTS5, shipped)', byIndex],
  ['Intl.Segmenter words', bySegmenter],
] as const) {
  let found = 0
  let right = 0
  let relevantAll = 0
  const misses: string[] = []
  for (const [query, language, relevant] of WRITTEN) {
    const got = method(query, language)
    found += got.length
    right += got.filter((slug) => relevant.includes(slug)).length
    relevantAll += relevant.length
    const wrong = got.filter((slug) => !relevant.includes(slug))
    const missed = relevant.filter((slug) => !got.includes(slug))
    if (wrong.length || missed.length) misses.push(`${query}: +${wrong.join(',') || '-'} −${missed.join(',') || '-'}`)
  }
  console.log(
    `${name.padEnd(24)} precision ${(right / Math.max(1, found)).toFixed(2)}, recall ${(right / relevantAll).toFixed(2)} over ${WRITTEN.length} queries; ${misses.join('; ') || 'no error'}`,
  )
}
