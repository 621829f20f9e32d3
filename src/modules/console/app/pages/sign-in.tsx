import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { answerWithPasskey, needsPasskey, signInWithPasskey, type SignInAnswer } from '../passkey-client.ts'
import { ErrorNote, Field } from '../ui.tsx'

export function SignInPage({ onDone }: { onDone: () => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [challenge, setChallenge] = useState<PublicKeyCredentialRequestOptionsJSON | null>(null)
  const submit = (event: Event) => {
    event.preventDefault()
    setError(null)
    api<SignInAnswer>('POST', '/admin/api/sign-in', { email, password }).then(
      (answer) => (needsPasskey(answer) ? setChallenge(answer.options) : onDone()),
      setError,
    )
  }
  const confirm = () => challenge && answerWithPasskey(challenge).then(onDone, setError)
  if (challenge)
    return (
      <section class="card narrow" aria-label={t('secondFactorTitle')}>
        <h1>{t('secondFactorTitle')}</h1>
        <p>{t('secondFactorIntro')}</p>
        <ErrorNote error={error} />
        <button type="button" onClick={confirm}>
          {t('usePasskey')}
        </button>
      </section>
    )
  return (
    <form class="card narrow" onSubmit={submit}>
      <h1>{t('signIn')}</h1>
      <Field label={t('email')} name="email" type="email" autocomplete="username webauthn" value={email} onInput={setEmail} />
      <Field label={t('password')} name="password" type="password" autocomplete="current-password" value={password} onInput={setPassword} />
      <ErrorNote error={error} />
      <button type="submit">{t('signIn')}</button>
      <p class="hint">{t('passkeyOr')}</p>
      <button type="button" onClick={() => (setError(null), signInWithPasskey(email.trim()).then(onDone, setError))}>
        {t('signInWithPasskey')}
      </button>
    </form>
  )
}
