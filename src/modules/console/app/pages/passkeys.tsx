import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { addPasskey } from '../passkey-client.ts'
import { ErrorNote, Field, Section, useLoad } from '../ui.tsx'

interface PasskeyRow {
  id: number
  name: string
  createTime: string
  lastUsedAt: string | null
}

/** The account's passkeys: named, listed, removable; Add passkey creates one on this device. */
export function PasskeysSection() {
  const list = useLoad(() => api<PasskeyRow[]>('GET', '/admin/api/passkeys'))
  const [name, setName] = useState('')
  const [error, setError] = useState<unknown>(null)
  const act = (action: Promise<unknown>) => action.then(() => (setError(null), list.reload()), setError)
  const add = (event: Event) => {
    event.preventDefault()
    act(addPasskey(name.trim()).then(() => setName('')))
  }
  return (
    <Section title={t('passkeys')}>
      <p>{t('passkeysIntro')}</p>
      <ErrorNote error={list.error ?? error} />
      {list.data?.length === 0 && <p>{t('noPasskeys')}</p>}
      <ul class="rows">
        {list.data?.map((p) => (
          <li key={p.id}>
            <span>
              {p.name} · {t('added')} {p.createTime} UTC · {t('lastUsed')} {p.lastUsedAt ? `${p.lastUsedAt} UTC` : t('never')}
            </span>
            <button
              type="button"
              aria-label={`${t('removePasskey')} ${p.name}`}
              onClick={() => act(api('POST', `/admin/api/passkeys/${p.id}/remove`))}
            >
              {t('removePasskey')}
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={add}>
        <Field label={t('passkeyName')} name="passkey-name" value={name} onInput={setName} hint={t('passkeyNameHint')} />
        <button type="submit">{t('addPasskey')}</button>
      </form>
    </Section>
  )
}

/** The account's own password change: the current one first; the other sessions end. */
export function PasswordSection() {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [state, setState] = useState<{ error?: unknown; done?: boolean }>({})
  const submit = (event: Event) => {
    event.preventDefault()
    api('POST', '/admin/api/password', { current, password: next }).then(
      () => (setCurrent(''), setNext(''), setState({ done: true })),
      (error) => setState({ error }),
    )
  }
  return (
    <Section title={t('changePassword')}>
      <form onSubmit={submit}>
        <Field
          label={t('currentPassword')}
          name="current-password"
          type="password"
          autocomplete="current-password"
          value={current}
          onInput={setCurrent}
        />
        <Field
          label={t('newPassword')}
          name="new-password"
          type="password"
          autocomplete="new-password"
          value={next}
          onInput={setNext}
          hint={t('passwordHint')}
        />
        <ErrorNote error={state.error} />
        {state.done && <p role="status">{t('passwordChanged')}</p>}
        <button type="submit">{t('changePassword')}</button>
      </form>
    </Section>
  )
}

/** The owner's requirement (shown to owners only): admins (and owners) confirm a password sign-in with a passkey. */
export function SecuritySection() {
  const setting = useLoad(() => api<{ requirePasskeyForAdmins: boolean }>('GET', '/admin/api/security'))
  const [state, setState] = useState<{ error?: unknown; done?: boolean }>({})
  // The owner's choice while it is saved: a render meanwhile (the passkey list arriving) would
  // otherwise put the box back to the stored setting, which preact compares with the DOM's state.
  const [wanted, setWanted] = useState<boolean>()
  const toggle = (on: boolean) => {
    setWanted(on)
    void api('POST', '/admin/api/security', { requirePasskeyForAdmins: on })
      .then(
        () => setState({ done: true }),
        (error) => setState({ error }),
      )
      .then(() => setting.reload())
      .then(() => setWanted(undefined))
  }
  return (
    <Section title={t('security')}>
      <label class="check">
        <input
          type="checkbox"
          checked={wanted ?? setting.data?.requirePasskeyForAdmins ?? false}
          // Until the setting is known a click would be undone by its arrival.
          disabled={setting.data === undefined}
          aria-describedby="require-passkey-hint"
          onChange={(event) => toggle((event.currentTarget as HTMLInputElement).checked)}
        />{' '}
        {t('requirePasskey')}
      </label>
      <p class="hint" id="require-passkey-hint">
        {t('requirePasskeyHint')}
      </p>
      <ErrorNote error={state.error ?? setting.error} />
      {state.done && <p role="status">{t('saved')}</p>}
    </Section>
  )
}
