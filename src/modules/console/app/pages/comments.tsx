import { useState } from 'preact/hooks'
import { api, type Page } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, Pager, useLoad } from '../ui.tsx'
import { ReplyBox } from './reply.tsx'

/** The admin record of a comment (`BlogCommentRes`): its text is shown as text, never as markup. */
interface CommentRow {
  id: number
  postId: number
  postTitle: string
  authorName: string
  authorEmail: string
  content: string
  createTime: string
  status: number
  statusText: string
  spamReason: string
  ip: string
  userAgent: string
}

type Action = 'approve' | 'reject' | 'spam'
const FILTERS = [
  { value: '0', label: 'statusPending' },
  { value: '1', label: 'statusApproved' },
  { value: '2', label: 'statusRejected' },
  { value: '', label: 'statusAll' },
] as const

export function Comments() {
  const [status, setStatus] = useState('0')
  const [current, setCurrent] = useState(1)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [error, setError] = useState<unknown>(null)
  const list = useLoad(
    () => api<Page<CommentRow>>('GET', `/api/admin/blog/comments?current=${current}&size=20${status ? `&status=${status}` : ''}`),
    [status, current],
  )
  const moderate = async (ids: number[], action: Action) => {
    setError(null)
    try {
      for (const id of ids) await api('POST', `/api/admin/blog/comments/${id}/moderate`, { action })
    } catch (e) {
      setError(e)
    }
    setSelected(new Set())
    void list.reload()
  }
  const toggle = (id: number) => {
    const next = new Set(selected)
    if (!next.delete(id)) next.add(id)
    setSelected(next)
  }
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.size)) : 1
  return (
    <>
      <h1>{t('comments')}</h1>
      <div class="toolbar">
        <div class="field inline">
          <label for="comment-status">{t('filterStatus')}</label>
          <select
            id="comment-status"
            value={status}
            onChange={(e) => {
              setStatus((e.currentTarget as HTMLSelectElement).value)
              setCurrent(1)
            }}
          >
            {FILTERS.map((f) => (
              <option value={f.value}>{t(f.label)}</option>
            ))}
          </select>
        </div>
        <button type="button" disabled={selected.size === 0} onClick={() => moderate([...selected], 'approve')}>
          {t('approveSelected')}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={() => moderate([...selected], 'reject')}>
          {t('rejectSelected')}
        </button>
      </div>
      <ErrorNote error={error ?? list.error} />
      {list.data?.records.length === 0 && <p>{t('noComments')}</p>}
      <ul class="comments">
        {list.data?.records.map((c) => (
          <li key={c.id} class="card comment">
            <div class="comment-head">
              <input
                type="checkbox"
                id={`select-${c.id}`}
                checked={selected.has(c.id)}
                onChange={() => toggle(c.id)}
                aria-label={`${t('select')} ${c.id}`}
              />
              <strong class="author">{c.authorName}</strong>
              <span class="status">{c.statusText}</span>
            </div>
            <p class="content">{c.content}</p>
            <dl class="meta">
              <dt>{t('onPost')}</dt>
              <dd>{c.postTitle}</dd>
              <dt>{t('from')}</dt>
              <dd>{c.authorEmail || '—'}</dd>
              <dt>{t('address')}</dt>
              <dd>{c.ip || '—'}</dd>
              <dt>{t('userAgent')}</dt>
              <dd>{c.userAgent || '—'}</dd>
              {c.spamReason && (
                <>
                  <dt>{t('spamReason')}</dt>
                  <dd>{c.spamReason}</dd>
                </>
              )}
            </dl>
            <div class="actions">
              <button type="button" onClick={() => moderate([c.id], 'approve')}>
                {t('approve')}
              </button>
              <button type="button" onClick={() => moderate([c.id], 'reject')}>
                {t('reject')}
              </button>
              <button type="button" onClick={() => moderate([c.id], 'spam')}>
                {t('spam')}
              </button>
              {c.status !== 2 && <ReplyBox commentId={c.id} onDone={() => void list.reload()} />}
            </div>
          </li>
        ))}
      </ul>
      <Pager current={current} pages={pages} onPage={setCurrent} />
    </>
  )
}
