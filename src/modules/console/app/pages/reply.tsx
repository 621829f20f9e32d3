import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote } from '../ui.tsx'

/** The owner's reply under one comment: published approved at once (a pending comment is approved with it). */
export function ReplyBox({ commentId, onDone }: { commentId: number; onDone: () => void }) {
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const [error, setError] = useState<unknown>(null)
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        {t('reply')}
      </button>
    )
  const id = `reply-${commentId}`
  const send = (event: Event) => {
    event.preventDefault()
    api('POST', `/api/admin/blog/comments/${commentId}/reply`, { content: text }).then(() => {
      setOpen(false)
      setText('')
      onDone()
    }, setError)
  }
  return (
    <form class="reply" onSubmit={send}>
      <label for={id}>{t('replyText')}</label>
      <textarea id={id} rows={3} required value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
      <ErrorNote error={error} />
      <button type="submit">{t('sendReply')}</button>
    </form>
  )
}
