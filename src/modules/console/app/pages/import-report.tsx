import { t } from '../i18n.ts'
import { Section } from '../ui.tsx'

interface Counts {
  created: number
  updated: number
  unchanged: number
}
interface PostLine {
  id: number | null
  title: string
  slug: string
  status: string
  seoScore: number
  fixed: string[]
  blocking: string[]
  notes: string[]
}
/** The CLI's `--report` JSON (src/modules/import/report.ts), as far as the page shows it. */
export interface SourceReport {
  dryRun: boolean
  counts: Record<string, Counts>
  skippedComments: number
  posts: PostLine[]
  pages: { title: string; slug: string; status: string; notes: string[] }[]
}
/** What `import folio` reports: the archive's manifest. */
export interface ArchiveReport {
  manifest: { tables: Record<string, number>; media: { files: number } }
}

const list = (items: string[]) => (items.length ? items.join(', ') : '—')

function PostTable({ posts, caption }: { posts: PostLine[]; caption: string }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('imp.postTitle')}</th>
          <th scope="col">{t('imp.postStatus')}</th>
          <th scope="col">{t('imp.seo')}</th>
          <th scope="col">{t('imp.fixed')}</th>
          <th scope="col">{t('imp.blocking')}</th>
          <th scope="col">{t('imp.notes')}</th>
        </tr>
      </thead>
      <tbody>
        {posts.map((p) => (
          <tr key={p.slug}>
            <th scope="row">{p.title}</th>
            <td>{p.status}</td>
            <td>{p.seoScore}</td>
            <td>{list(p.fixed)}</td>
            <td>{list(p.blocking)}</td>
            <td>{list(p.notes)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** An import's report: the counts, what needs a human, every post and page. Text is escaped by preact. */
export function ImportReportView({ report }: { report: SourceReport | ArchiveReport }) {
  if ('manifest' in report)
    return (
      <Section title={t('imp.archive')}>
        <ul>
          {Object.entries(report.manifest.tables).map(([table, n]) => (
            <li key={table}>
              <code>{table}</code>: {n}
            </li>
          ))}
          <li>media: {report.manifest.media.files}</li>
        </ul>
      </Section>
    )
  const human = report.posts.filter((p) => p.blocking.length || p.notes.length)
  const pagesNoted = report.pages.filter((p) => p.notes.length)
  return (
    <>
      <Section title={t('imp.counts')}>
        {report.dryRun && <p>{t('imp.dryRunNote')}</p>}
        <table>
          <thead>
            <tr>
              <th scope="col">{t('imp.kind')}</th>
              <th scope="col">{t('imp.created')}</th>
              <th scope="col">{t('imp.updated')}</th>
              <th scope="col">{t('imp.unchanged')}</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(report.counts).map(([kind, c]) => (
              <tr key={kind}>
                <th scope="row">{kind}</th>
                <td>{c.created}</td>
                <td>{c.updated}</td>
                <td>{c.unchanged}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {report.skippedComments > 0 && (
          <p>
            {t('imp.skipped')}: {report.skippedComments}
          </p>
        )}
      </Section>
      <Section title={t('imp.human')}>
        {human.length || pagesNoted.length ? (
          <>
            {human.length > 0 && <PostTable posts={human} caption={t('imp.posts')} />}
            {pagesNoted.length > 0 && (
              <ul aria-label={t('imp.pages')}>
                {pagesNoted.map((p) => (
                  <li key={p.slug}>
                    {p.title}: {list(p.notes)}
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <p>{t('imp.nothing')}</p>
        )}
      </Section>
      <Section title={t('imp.posts')}>
        <PostTable posts={report.posts} caption={t('imp.posts')} />
      </Section>
      {report.pages.length > 0 && (
        <Section title={t('imp.pages')}>
          <ul>
            {report.pages.map((p) => (
              <li key={p.slug}>
                {p.title} (<code>{p.slug}</code>, {p.status})
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  )
}
