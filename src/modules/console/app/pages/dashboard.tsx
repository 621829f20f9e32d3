import { api, type Me } from '../api.ts'
import { t, type Key } from '../i18n.ts'
import { ErrorNote, Section, useLoad } from '../ui.tsx'

interface Health {
  status: 'ok' | 'degraded'
  render: { pending: number; due: number; failing: number; lastError?: string | null }
  mirror?: { pending: number; lastError?: string | null }
}
interface DashboardData {
  counts: Record<'published' | 'drafts' | 'scheduled' | 'pendingComments' | 'failedDeliveries', number>
  checklist: { key: string; done: boolean }[]
  activity: { id: number; userName: string | null; action: string; status: number; ip: string; createTime: string }[]
}

export function Dashboard({ me }: { me: Me }) {
  const health = useLoad(() => api<Health>('GET', '/healthz'))
  const board = useLoad(() => api<DashboardData>('GET', '/admin/api/dashboard'))
  const todo = board.data?.checklist.filter((step) => !step.done) ?? []
  return (
    <>
      <h1>{t('dashboard')}</h1>
      {me.siteUrlWarning && <p class="warning">{me.siteUrlWarning}</p>}
      <ErrorNote error={health.error ?? board.error} />
      {board.data && todo.length > 0 && (
        <Section title={t('checklist')}>
          <ul class="checklist">
            {board.data.checklist.map((step) => (
              <li key={step.key} class={step.done ? 'done' : 'todo'}>
                <span class="state">{step.done ? t('checklistDone') : t('checklistTodo')}</span> {t(`check.${step.key}` as Key)}
              </li>
            ))}
          </ul>
        </Section>
      )}
      {health.data && (
        <Section title={t('health')}>
          <p class={health.data.status === 'ok' ? 'ok' : 'warning'}>{health.data.status === 'ok' ? t('healthOk') : t('healthDegraded')}</p>
          <dl class="figures">
            <dt>{t('renderBacklog')}</dt>
            <dd>{health.data.render.pending}</dd>
            <dt>{t('failingJobs')}</dt>
            <dd>{health.data.render.failing}</dd>
            {health.data.mirror && (
              <>
                <dt>{t('mirrorBacklog')}</dt>
                <dd>{health.data.mirror.pending}</dd>
              </>
            )}
            {health.data.render.lastError && (
              <>
                <dt>{t('lastError')}</dt>
                <dd>{health.data.render.lastError}</dd>
              </>
            )}
          </dl>
        </Section>
      )}
      {board.data && (
        <Section title={t('counts')}>
          <dl class="figures">
            {(Object.keys(board.data.counts) as (keyof DashboardData['counts'])[]).map((key) => (
              <>
                <dt>{t(key)}</dt>
                <dd>{board.data!.counts[key]}</dd>
              </>
            ))}
          </dl>
        </Section>
      )}
      {board.data && (
        <Section title={t('activity')}>
          {board.data.activity.length === 0 ? (
            <p>{t('noActivity')}</p>
          ) : (
            <ul class="rows">
              {board.data.activity.map((a) => (
                <li key={a.id}>
                  <span>
                    {a.createTime} UTC · {a.userName ?? '—'} · {a.action} · {a.status} · {a.ip}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      )}
    </>
  )
}
