import { useState } from 'preact/hooks'
import type { WebhookDeliveryRes } from '../../../webhooks/delivery-log.ts'
import type { WebhookReceiverRes } from '../../../webhooks/receivers.ts'
import { api, type Page } from '../api.ts'
import { t } from '../i18n.ts'
import { CheckboxGroup, ErrorNote, Field, Section, useLoad } from '../ui.tsx'

// Types only (erased by the bundler): the console reads the admin API's own answer shapes.
type Receiver = WebhookReceiverRes
type Delivery = WebhookDeliveryRes
const BASE = '/api/admin/blog/webhooks'
const EVENTS = ['blog.*', 'blog.post.published', 'blog.post.unpublished', 'blog.post.deleted', 'blog.comment.created', 'blog.cache.purge']

/** A signing secret made in the browser (32 random bytes, hex): shown once, after the save. */
const newSecret = () => [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')

export function Webhooks() {
  const receivers = useLoad(() => api<Receiver[]>('GET', `${BASE}/`))
  const [status, setStatus] = useState('')
  const deliveries = useLoad(() => api<Page<Delivery>>('GET', `${BASE}/events?size=50${status ? `&status=${status}` : ''}`), [status])
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>(['blog.*'])
  const [secret, setSecret] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  const add = (event: Event) => {
    event.preventDefault()
    const made = newSecret()
    api('POST', `${BASE}/save`, { url, events, secret: made }).then(() => {
      setError(null)
      setSecret(made)
      void receivers.reload()
    }, setError)
  }
  const redeliver = (id: number) => api('POST', `${BASE}/events/${id}/redeliver`).then(deliveries.reload, setError)
  const [pinged, setPinged] = useState(false)
  const ping = (id: number) =>
    api('POST', `${BASE}/${id}/ping`).then(() => {
      setPinged(true)
      void deliveries.reload()
    }, setError)
  const rotate = (id: number) =>
    api<{ secret: string }>('POST', `${BASE}/${id}/rotate-secret`).then((rotated) => {
      setSecret(rotated.secret)
      void receivers.reload()
    }, setError)
  return (
    <>
      <h1>{t('webhooks')}</h1>
      {secret && (
        <div class="card issued" role="status">
          <p class="warning">{t('secretOnce')}</p>
          <label for="issued-secret">{t('signingSecret')}</label>
          <input id="issued-secret" type="text" readOnly value={secret} />
        </div>
      )}
      <ErrorNote error={error ?? receivers.error ?? deliveries.error} />
      <form class="card" onSubmit={add}>
        <h2>{t('addReceiver')}</h2>
        <Field label={t('receiverUrl')} name="receiver-url" type="url" value={url} onInput={setUrl} hint={t('privateHint')} />
        <CheckboxGroup legend={t('events')} options={EVENTS} chosen={events} onChange={setEvents} />
        <button type="submit">{t('addReceiver')}</button>
      </form>
      <Section title={t('receivers')}>
        {pinged && <p role="status">{t('pinged')}</p>}
        <ul class="rows">
          {receivers.data?.map((r) => (
            <li key={r.id} aria-label={r.url}>
              <span>
                {r.url} · {r.events.join(', ')} ·{' '}
                {r.enabled ? t('active') : `${t('disabled')}${r.disabledReason ? ` (${r.disabledReason})` : ''}`} · {t('secret')}{' '}
                {r.secretFingerprint}
              </span>
              <span class="actions">
                <button type="button" onClick={() => ping(r.id)}>
                  {t('ping')}
                </button>
                <button type="button" onClick={() => rotate(r.id)}>
                  {t('rotateSecret')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t('deliveries')}>
        <div class="field inline">
          <label for="delivery-status">{t('filterStatus')}</label>
          <select id="delivery-status" value={status} onChange={(e) => setStatus((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{t('statusAll')}</option>
            {['pending', 'sending', 'delivered', 'failed'].map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </div>
        <ul class="comments">
          {deliveries.data?.records.map((d) => (
            <li key={d.id} class="card" aria-label={`${t('delivery')} ${d.id}`}>
              <dl class="meta">
                <dt>{t('event')}</dt>
                <dd>{d.event}</dd>
                <dt>{t('receiverUrl')}</dt>
                <dd>{d.receiverUrl}</dd>
                <dt>{t('status')}</dt>
                <dd>{d.status}</dd>
                <dt>{t('attempts')}</dt>
                <dd>
                  {d.attempts}/{d.maxAttempts}
                </dd>
                <dt>{t('response')}</dt>
                <dd>{d.lastHttpStatus === null ? '—' : `HTTP ${d.lastHttpStatus} ${(d.lastResponse ?? '').slice(0, 200)}`}</dd>
                {d.failureReason && (
                  <>
                    <dt>{t('failure')}</dt>
                    <dd>{d.failureReason}</dd>
                  </>
                )}
                {d.nextAttemptAt && (
                  <>
                    <dt>{t('nextRetry')}</dt>
                    <dd>{d.nextAttemptAt}</dd>
                  </>
                )}
              </dl>
              {d.status !== 'pending' && d.status !== 'sending' && (
                <button type="button" onClick={() => redeliver(d.id)}>
                  {t('redeliver')}
                </button>
              )}
            </li>
          ))}
        </ul>
      </Section>
    </>
  )
}
