import { expect } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Debian's `hugo`, installed with apt-get when missing (the test machine runs as root). */
function hugoBinary(): string {
  const found = Bun.which('hugo')
  if (found) return found
  for (const step of [
    ['apt-get', 'update'],
    ['apt-get', 'install', '-y', '--no-install-recommends', 'hugo'],
  ]) {
    const run = Bun.spawnSync(step, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdout: 'ignore', stderr: 'pipe' })
    if (run.exitCode !== 0) throw new Error(`${step.join(' ')} failed: ${run.stderr.toString()}`)
  }
  return Bun.which('hugo') ?? '/usr/bin/hugo'
}

const WORD = /[\p{L}\p{N}]+/gu
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }
/** The words of an HTML fragment (tags dropped, entities decoded), to compare bodies however each side spells them. */
const wordsOf = (html: string): string[] =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
    .replace(/&([a-z]+);/gi, (_, name) => NAMED[name] ?? ' ')
    .match(WORD) ?? []

export interface BuiltPost {
  slug: string
  title: string
  language: 'en' | 'zh'
  contentHtml: string
  /** A standalone page: a top-level Hugo page (`/<slug>/`), its Folio URL `/{en|cn}/<slug>`. */
  page?: boolean
}

/**
 * Builds an exported Markdown folder with Debian's Hugo and a minimal layout of the test's own (no
 * theme): every published post (and standalone page) has its page at Hugo's default path, with its title and the first
 * words of its body, and its Folio URL is an alias that points there.
 */
export function buildWithHugo(folder: string, published: BuiltPost[]): void {
  mkdirSync(join(folder, 'layouts', '_default'), { recursive: true })
  writeFileSync(join(folder, 'layouts', '_default', 'single.html'), '<h1>{{ .Title }}</h1>\n<main>{{ .Content }}</main>\n')
  writeFileSync(
    join(folder, 'layouts', '_default', 'list.html'),
    '{{ range .Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>\n{{ end }}',
  )
  const out = join(folder, '..', 'hugo-public')
  const build = Bun.spawnSync([hugoBinary(), '--source', folder, '--destination', out, '--quiet'], {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  expect(build.stderr.toString()).toBe('')
  expect(build.exitCode).toBe(0)
  expect(published.length).toBeGreaterThan(3)
  for (const post of published) {
    const path = `${post.language === 'zh' ? 'zh/' : ''}${post.page ? '' : 'posts/'}${post.slug}/index.html`
    const page = readFileSync(join(out, path), 'utf8')
    expect({ path, title: wordsOf(/<h1>(.*?)<\/h1>/s.exec(page)?.[1] ?? '') }).toEqual({ path, title: post.title.match(WORD) ?? [] })
    const body = wordsOf(/<main>(.*)<\/main>/s.exec(page)?.[1] ?? '').join(' ')
    expect({ path, body: body.includes(wordsOf(post.contentHtml).slice(0, 12).join(' ')) }).toEqual({ path, body: true })
    // Hugo writes aliases from the site's root, whatever the page's language.
    const alias = readFileSync(
      join(out, post.language === 'zh' ? 'cn' : 'en', ...(post.page ? [] : ['blog']), post.slug, 'index.html'),
      'utf8',
    )
    expect(alias).toContain(`/${path.replace(/index\.html$/, '')}`)
  }
}
