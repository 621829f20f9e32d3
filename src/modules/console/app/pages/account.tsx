import { api, type Me } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, Section, useLoad } from '../ui.tsx'
import { PasskeysSection, PasswordSection, SecuritySection } from './passkeys.tsx'

interface SessionRow {
  id: number
  ip: string
  userAgent: string
  createTime: string
  lastSeenAt: string
  current: boolean
}

export function Account({ me }: { me: Me }) {
  const sessions = useLoad(() => api<SessionRow[]>('GET', '/admin/api/sessions'))
  const end = (id: number) => api('POST', `/admin/api/sessions/${id}/end`).then(sessions.reload)
  return (
    <>
      <h1>{t('account')}</h1>
      <p>
        {me.user.name} · {me.user.email} · {me.user.role}
      </p>
      <Section title={t('sessions')}>
        <ErrorNote error={sessions.error} />
        <ul class="rows">
          {sessions.data?.map((s) => (
            <li key={s.id}>
              <span>
                {s.ip} · {s.userAgent.slice(0, 80)} · {t('lastSeen')} {s.lastSeenAt} UTC{s.current ? ` · ${t('thisSession')}` : ''}
              </span>
              {!s.current && (
                <button type="button" onClick={() => end(s.id)}>
                  {t('endSession')}
                </button>
              )}
            </li>
          ))}
        </ul>
        <button type="button" onClick={() => api('POST', '/admin/api/sign-out-everywhere').then(() => location.assign('/admin/'))}>
          {t('signOutEverywhere')}
        </button>
      </Section>
      <PasskeysSection />
      <PasswordSection />
      {me.user.role === 'owner' && <SecuritySection />}
    </>
  )
}
