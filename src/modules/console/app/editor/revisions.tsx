import { diffWords } from 'diff'
import { useState } from 'preact/hooks'
import { api, type Page } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, useLoad } from '../ui.tsx'
import type { StoredPost } from './form.ts'

interface Revision {
  version: number
  createTime: string
  tokenName: string
  seoScore: number
  changedFields: string[]
}

interface RevisionDetail {
  version: number
  diff: { field: string; revision: unknown; current: unknown }[]
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? ''))

/** A word diff of one field, from the revision to the post now: removed words struck, added ones marked. */
function FieldDiff({ from, to }: { from: string; to: string }) {
  return (
    <p class="diff">
      {diffWords(from, to).map((part, i) =>
        part.added ? <ins key={i}>{part.value}</ins> : part.removed ? <del key={i}>{part.value}</del> : <span key={i}>{part.value}</span>,
      )}
    </p>
  )
}

/** The post's revisions, newest first, each with its changes against now and a restore (If-Match the post's version). */
export function Revisions(props: { post: StoredPost; onRestored: (post: StoredPost) => void }) {
  const base = `/api/admin/blog/posts/${props.post.id}/revisions`
  const list = useLoad(() => api<Page<Revision>>('GET', `${base}?size=20`), [props.post.version])
  const [shown, setShown] = useState<RevisionDetail | null>(null)
  const [error, setError] = useState<unknown>(null)
  const act = (action: () => Promise<void>) => action().catch(setError)
  return (
    <section class="card" aria-label={t('revisions')}>
      <h2>{t('revisions')}</h2>
      <ErrorNote error={error ?? list.error} />
      <ul class="rows">
        {list.data?.records.map((r) => (
          <li key={r.version}>
            v{r.version} · {r.createTime} · {r.tokenName} · {r.changedFields.join(', ')}{' '}
            <button type="button" onClick={() => act(async () => setShown(await api<RevisionDetail>('GET', `${base}/${r.version}`)))}>
              {t('showDiff')} v{r.version}
            </button>{' '}
            {r.version !== props.post.version && (
              <button
                type="button"
                onClick={() =>
                  act(async () =>
                    props.onRestored(
                      await api<StoredPost>('POST', `${base}/${r.version}/restore`, undefined, { 'if-match': `"${props.post.version}"` }),
                    ),
                  )
                }
              >
                {t('restore')} v{r.version}
              </button>
            )}
          </li>
        ))}
      </ul>
      {shown && (
        <dl class="revision-diff" aria-label={`${t('showDiff')} v${shown.version}`}>
          {shown.diff.map((d) => (
            <div key={d.field}>
              <dt>{d.field}</dt>
              <dd>
                <FieldDiff from={text(d.revision)} to={text(d.current)} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}
