import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, Field } from '../ui.tsx'

export function SignInPage({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<unknown>(null)
  const submit = (event: Event) => {
    event.preventDefault()
    api('POST', '/admin/api/sign-in', { email, password }).then(onDone, setError)
  }
  return (
    <form class="card narrow" onSubmit={submit}>
      <h1>{t('signIn')}</h1>
      <Field label={t('email')} name="email" type="email" autocomplete="username" value={email} onInput={setEmail} />
      <Field label={t('password')} name="password" type="password" autocomplete="current-password" value={password} onInput={setPassword} />
      <ErrorNote error={error} />
      <button type="submit">{t('signIn')}</button>
    </form>
  )
}
