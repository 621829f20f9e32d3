/**
 * A full rebuild against Hugo's on the same posts: `bun bench/hugo.bench.ts [sizes…]` (default
 * 1000 10000; RUNS=3).
 *
 * For each size it seeds published posts (one through the real API, the rest cloned in SQLite:
 * bench/support/seed.ts), writes the same posts as a Hugo site (front matter with title, date,
 * slug, category and tags; the stored HTML as the body) with a small theme-less layout of the same
 * page kinds (post pages, a paginated home, paginated category and tag lists, RSS, sitemap), then
 * alternates whole processes: `cli rebuild --force` into an emptied CACHE_DIR, and `hugo` into an
 * emptied `public/`, RUNS times each. It prints each side's median, the ratio, and the files and
 * bytes each wrote. Debian's `hugo` is installed with apt-get when missing.
 */
import { Database } from 'bun:sqlite'
import { lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFolio } from '../test/support/folio.ts'
import { seedPublished } from './support/seed.ts'

const sizes = process.argv.slice(2).map(Number).filter(Boolean)
const RUNS = Number(process.env.RUNS ?? 3)
const fmt = (n: number, digits = 2) => n.toFixed(digits)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

function ensureHugo(): string {
  if (Bun.which('hugo')) return Bun.spawnSync(['hugo', 'version']).stdout.toString().trim()
  console.log('installing hugo (apt-get)…')
  const installed = Bun.spawnSync(['apt-get', 'install', '-y', 'hugo'], { stdout: 'inherit', stderr: 'inherit' })
  if (!installed.success) throw new Error('hugo is missing and apt-get could not install it')
  return Bun.spawnSync(['hugo', 'version']).stdout.toString().trim()
}

/** Files (symlinks included) and bytes under a folder. */
function footprint(root: string): { files: number; bytes: number } {
  let files = 0
  let bytes = 0
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name)
      if (entry.isDirectory()) walk(full)
      else {
        files++
        bytes += lstatSync(full).size
      }
    }
  }
  walk(root)
  return { files, bytes }
}

const LAYOUTS: Record<string, string> = {
  '_default/baseof.html': `<!doctype html><html lang="{{ .Site.LanguageCode }}"><head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">{{ with .OutputFormats.Get "rss" }}<link rel="alternate" type="application/rss+xml" href="{{ .Permalink }}">{{ end }}
<link rel="canonical" href="{{ .Permalink }}"></head><body><header><a href="/">{{ .Site.Title }}</a></header><main>{{ block "main" . }}{{ end }}</main></body></html>`,
  '_default/single.html': `{{ define "main" }}<article><h1>{{ .Title }}</h1><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z07:00" }}">{{ .Date.Format "2 Jan 2006" }}</time>
<p>{{ range .Params.categories }}<a href="{{ "categories/" | relURL }}{{ . | urlize }}/">{{ . }}</a> {{ end }}{{ range .Params.tags }}<a href="{{ "tags/" | relURL }}{{ . | urlize }}/">#{{ . }}</a> {{ end }}</p>
{{ .Content }}</article>{{ end }}`,
  '_default/list.html': `{{ define "main" }}<h1>{{ .Title }}</h1>{{ $pages := .Pages }}{{ if .IsHome }}{{ $pages = where .Site.RegularPages "Section" "posts" }}{{ end }}
{{ $p := .Paginate $pages }}<ul>{{ range $p.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time>{{ .Date.Format "2006-01-02" }}</time><p>{{ .Summary }}</p></li>{{ end }}</ul>
{{ if $p.HasPrev }}<a rel="prev" href="{{ $p.Prev.URL }}">Newer</a>{{ end }} {{ if $p.HasNext }}<a rel="next" href="{{ $p.Next.URL }}">Older</a>{{ end }}{{ end }}`,
  '_default/terms.html': `{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Data.Terms.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }})</li>{{ end }}</ul>{{ end }}`,
}

/** The posts as a Hugo site: one Markdown file each (the stored HTML as its body), the layouts, the config. */
function writeHugoSite(dataDir: string, root: string): void {
  rmSync(root, { recursive: true, force: true })
  const db = new Database(join(dataDir, 'folio.db'), { readonly: true })
  const rows = db
    .query(
      `select p.slug, p.title, p.summary, p.content_html as html, p.published_at as at, c.name_en as category,
         (select json_group_array(t.name_en) from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = p.id) as tags
       from posts p join categories c on c.id = p.category_id where p.status = 1`,
    )
    .all() as { slug: string; title: string; summary: string; html: string; at: string; category: string; tags: string }[]
  db.close()
  const content = join(root, 'content', 'posts')
  mkdirSync(content, { recursive: true })
  for (const row of rows) {
    const front = {
      title: row.title,
      date: `${row.at.replace(' ', 'T')}Z`,
      slug: row.slug,
      summary: row.summary,
      categories: [row.category],
      tags: JSON.parse(row.tags) as string[],
    }
    writeFileSync(join(content, `${row.slug}.md`), `${JSON.stringify(front, null, 1)}\n\n${row.html}\n`)
  }
  for (const [name, text] of Object.entries(LAYOUTS)) {
    mkdirSync(join(root, 'layouts', name, '..'), { recursive: true })
    writeFileSync(join(root, 'layouts', name), text)
  }
  writeFileSync(
    join(root, 'config.toml'),
    `baseURL = "https://blog.example.org/"
languageCode = "en"
title = "Bench blog"
paginate = 10
disableKinds = []
[taxonomies]
  category = "categories"
  tag = "tags"
[markup.goldmark.renderer]
  unsafe = true
[outputs]
  home = ["HTML", "RSS"]
  section = ["HTML", "RSS"]
  taxonomy = ["HTML"]
  term = ["HTML", "RSS"]
`,
  )
}

/** CPU time (user + system, ms) of every finished process, in order: less disturbed than wall time on a shared box. */
const cpu = new Map<string, number[]>()

/** Runs a whole process to its end; its wall time in ms (a failure throws with its output); its CPU time goes under `name`. */
async function timed(name: string, command: string[], options: { cwd: string; env?: Record<string, string> }): Promise<number> {
  const started = performance.now()
  const proc = Bun.spawn(command, { ...options, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  const ms = performance.now() - started
  if (code !== 0) throw new Error(`${command.join(' ')} failed (${code}): ${out}${err}`)
  const usage = proc.resourceUsage()
  if (usage) cpu.set(name, [...(cpu.get(name) ?? []), Number(usage.cpuTime.total) / 1000])
  return ms
}

console.log(`Folio full rebuild vs Hugo, ${ensureHugo()}; ${RUNS} alternated runs each (median, whole processes)`)
const rows: string[] = []
for (const size of sizes.length ? sizes : [1000, 10000]) {
  const folio = await startFolio({ SITE_URL: 'https://blog.example.org' })
  // Seeded with the server stopped (seed.ts), and never restarted: the CLI rebuilds on its own.
  await seedPublished(folio, await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin'), size, false)
  const hugoRoot = join(folio.dataDir, '..', 'hugo')
  writeHugoSite(folio.dataDir, hugoRoot)
  const env: Record<string, string> = {
    ...folio.env,
    LOG_LEVEL: 'warn',
    ...(process.env.RENDER_WORKERS ? { RENDER_WORKERS: process.env.RENDER_WORKERS } : {}),
  }
  const folioMs: number[] = []
  const inThreadMs: number[] = []
  const hugoMs: number[] = []
  const rebuild = (renderWorkers: string) => {
    rmSync(folio.cacheDir, { recursive: true, force: true })
    return timed(`${size} folio ${renderWorkers}`, [process.execPath, join(import.meta.dir, '..', 'src', 'cli.ts'), 'rebuild', '--force'], {
      cwd: join(import.meta.dir, '..'),
      env: { ...env, RENDER_WORKERS: renderWorkers },
    })
  }
  for (let run = 0; run < RUNS; run++) {
    // The render loop's own thread (RENDER_WORKERS=0, the code before render threads) first, so the
    // footprint counted below is the default's.
    inThreadMs.push(await rebuild('0'))
    folioMs.push(await rebuild(env.RENDER_WORKERS ?? '1'))
    rmSync(join(hugoRoot, 'public'), { recursive: true, force: true })
    hugoMs.push(await timed(`${size} hugo`, ['hugo', '--quiet'], { cwd: hugoRoot }))
    console.log(
      `  ${size} posts, run ${run + 1}: Folio ${fmt(folioMs.at(-1)! / 1000)} s (no render thread ${fmt(inThreadMs.at(-1)! / 1000)} s), Hugo ${fmt(hugoMs.at(-1)! / 1000)} s`,
    )
  }
  const f = footprint(folio.cacheDir)
  const h = footprint(join(hugoRoot, 'public'))
  const [fm, im, hm] = [median(folioMs), median(inThreadMs), median(hugoMs)]
  const cpuOf = (name: string) => fmt(median(cpu.get(`${size} ${name}`) ?? [0]) / 1000)
  console.log(
    `  ${size} posts, CPU seconds (median): Folio ${cpuOf(`folio ${env.RENDER_WORKERS ?? '1'}`)}, no render thread ${cpuOf('folio 0')}, Hugo ${cpuOf('hugo')}`,
  )
  rows.push(
    `| ${size.toLocaleString('en')} | ${fmt(fm / 1000)} s | ${fmt(im / 1000)} s | ${fmt(hm / 1000)} s | **${fmt(fm / hm)}×** | ${fmt(fm / im)}× | ${f.files.toLocaleString('en')} files, ${fmt(f.bytes / 1e6, 1)} MB | ${h.files.toLocaleString('en')} files, ${fmt(h.bytes / 1e6, 1)} MB |`,
  )
  await folio.dispose()
  rmSync(hugoRoot, { recursive: true, force: true })
}
console.log(
  '\n| posts | Folio `cli rebuild --force` (RENDER_WORKERS=1) | the same, RENDER_WORKERS=0 | Hugo | Folio ÷ Hugo | threads ÷ none | Folio wrote | Hugo wrote |',
)
console.log('| ----- | ---- | ---- | ---- | ---- | ---- | ---- | ---- |')
for (const row of rows) console.log(row)
