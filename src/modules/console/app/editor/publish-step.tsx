import { useState } from 'preact/hooks'
import { navigate } from '../nav.ts'
import { t } from '../i18n.ts'
import { TextField } from './fields.tsx'
import type { PostForm, StoredPost } from './form.ts'
import type { CheckResult } from './live-check.ts'
import * as verbs from './verbs.ts'

const STATE_LABEL = ['stateDraft', 'statePublished', 'stateOffline'] as const

/** The publish step: the status verbs, each through the API's own route and scope. */
export function PublishStep(props: {
  form: PostForm
  set: (patch: Partial<PostForm>) => void
  stored: StoredPost | null
  check: CheckResult | null
  mayPublish: boolean
  run: (action: () => Promise<unknown>) => Promise<void>
  save: (status?: number) => Promise<void>
  adopt: (post: StoredPost) => void
}) {
  const { form, stored, check, run } = props
  const [when, setWhen] = useState('')
  const [preview, setPreview] = useState('')
  const blockers = check?.items.filter((i) => !i.passed && i.blocking) ?? []
  const reason = !props.mayPublish
    ? t('noPublishScope')
    : !check
      ? t('checkWaiting')
      : blockers.length
        ? `${t('publishBlocked')}: ${blockers.map((i) => i.label).join(', ')}`
        : ''
  const id = stored?.id ?? null
  return (
    <section class="card" aria-label={t('stepPublish')}>
      <h2>{t('stepPublish')}</h2>
      <p>
        {t('colState')}: <strong data-testid="post-state">{t(STATE_LABEL[stored?.status ?? 0]!)}</strong>
        {stored?.scheduledAt && ` · ${t('stateScheduled')} ${verbs.localTime(stored.scheduledAt)}`}
      </p>
      <TextField
        name="alternateSlug"
        label="fAlternate"
        value={form.alternateSlug}
        onInput={(alternateSlug) => props.set({ alternateSlug })}
      />
      <div class="actions">
        <button type="submit">{t('saveDraft')}</button>
        <button type="button" disabled={reason !== ''} aria-describedby="publish-reason" onClick={() => props.save(1)}>
          {t('publish')}
        </button>
      </div>
      {reason && (
        <p class="hint" id="publish-reason" data-testid="publish-reason">
          {reason}
        </p>
      )}
      {id && (
        <>
          <div class="field inline">
            <label for="f-schedule">{t('fSchedule')}</label>
            <input id="f-schedule" type="datetime-local" value={when} onInput={(e) => setWhen(e.currentTarget.value)} />
            <button
              type="button"
              disabled={!props.mayPublish || !when}
              onClick={() => run(async () => props.adopt(await verbs.schedule(id, when)))}
            >
              {t('schedule')}
            </button>
          </div>
          <div class="actions">
            <button type="button" onClick={() => run(async () => setPreview((await verbs.previewLink(id)).pageUrl))}>
              {t('preview')}
            </button>
            {stored?.status === 1 && (
              <button
                type="button"
                disabled={!props.mayPublish}
                onClick={() => run(async () => (await verbs.takeOffline(id), props.adopt(await verbs.readPost(id))))}
              >
                {t('unpublish')}
              </button>
            )}
            <button
              type="button"
              disabled={!props.mayPublish}
              onClick={() => confirm(t('confirmDelete')) && run(async () => (await verbs.deletePost(id), navigate('/admin/posts')))}
            >
              {t('deletePost')}
            </button>
            {!form.alternateSlug && (
              <a class="button" href={`/admin/editor?translate=${id}`}>
                {t(form.language === 'en' ? 'writeChinese' : 'writeEnglish')}
              </a>
            )}
          </div>
          {preview && (
            <p>
              <a href={preview} target="_blank" rel="noopener noreferrer" data-testid="preview-link">
                {preview}
              </a>
            </p>
          )}
        </>
      )}
    </section>
  )
}
