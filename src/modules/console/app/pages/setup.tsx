import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, Field, useLoad } from '../ui.tsx'

export function SetupPage({ onDone }: { onDone: () => void }) {
  const code = new URLSearchParams(location.search).get('code') ?? ''
  const check = useLoad(() =>
    api<{ siteUrl: string; siteUrlWarning: string | null }>('GET', `/admin/api/setup?code=${encodeURIComponent(code)}`),
  )
  const [form, setForm] = useState({ nameEn: '', nameZh: '', ownerName: '', email: '', password: '' })
  const [error, setError] = useState<unknown>(null)
  const field = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value })
  if (check.error)
    return (
      <div class="card narrow">
        <h1>{t('setupTitle')}</h1>
        <ErrorNote error={check.error} />
      </div>
    )
  if (!check.data) return <p>{t('loading')}</p>
  const submit = (event: Event) => {
    event.preventDefault()
    api('POST', '/admin/api/setup', { code, ...form }).then(onDone, setError)
  }
  return (
    <form class="card narrow" onSubmit={submit}>
      <h1>{t('setupTitle')}</h1>
      <p>{t('setupIntro')}</p>
      <Field label={t('nameEn')} name="nameEn" value={form.nameEn} onInput={field('nameEn')} />
      <Field label={t('nameZh')} name="nameZh" value={form.nameZh} onInput={field('nameZh')} />
      <div class="field">
        <span class="label">{t('siteUrl')}</span>
        <p>
          <code>{check.data.siteUrl}</code>
        </p>
        {check.data.siteUrlWarning && (
          <p class="warning">
            {check.data.siteUrlWarning} {t('siteUrlFix')}
          </p>
        )}
      </div>
      <Field label={t('ownerName')} name="ownerName" autocomplete="name" value={form.ownerName} onInput={field('ownerName')} />
      <Field label={t('email')} name="email" type="email" autocomplete="username" value={form.email} onInput={field('email')} />
      <Field
        label={t('password')}
        name="password"
        type="password"
        autocomplete="new-password"
        hint={t('passwordHint')}
        value={form.password}
        onInput={field('password')}
      />
      <ErrorNote error={error} />
      <button type="submit">{t('createOwner')}</button>
    </form>
  )
}
