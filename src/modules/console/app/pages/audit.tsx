import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, Field, useLoad } from '../ui.tsx'

interface AuditRow {
  id: number
  userName: string | null
  action: string
  target: string
  status: number
  ip: string
  createTime: string
}
interface Person {
  id: number
  name: string
  email: string
}

const PAGE = 50

/** Who did what, when and from where: every console change and sign-in, newest first, with filters (admins only). */
export function Audit() {
  const people = useLoad(() => api<Person[]>('GET', '/admin/api/users'))
  const [user, setUser] = useState('')
  const [action, setAction] = useState('')
  const [ip, setIp] = useState('')
  const [since, setSince] = useState('')
  const [before, setBefore] = useState<number[]>([])
  const query = new URLSearchParams({
    size: String(PAGE),
    ...(user ? { user } : {}),
    ...(action.trim() ? { action: action.trim() } : {}),
    ...(ip.trim() ? { ip: ip.trim() } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(since) ? { since } : {}),
    ...(before.length ? { before: String(before.at(-1)) } : {}),
  })
  const rows = useLoad(() => api<AuditRow[]>('GET', `/admin/api/audit?${query}`), [query.toString()])
  const filter = (set: (value: string) => void) => (value: string) => {
    setBefore([])
    set(value)
  }
  return (
    <>
      <h1>{t('aud.title')}</h1>
      <div class="toolbar">
        <div class="field inline">
          <label for="audit-user">{t('aud.person')}</label>
          <select id="audit-user" value={user} onChange={(e) => filter(setUser)((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{t('aud.everyone')}</option>
            {people.data?.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name} ({p.email})
              </option>
            ))}
          </select>
        </div>
        <Field label={t('aud.action')} name="audit-action" value={action} onInput={filter(setAction)} required={false} />
        <Field label={t('aud.address')} name="audit-ip" value={ip} onInput={filter(setIp)} required={false} />
        <div class="field">
          <label for="audit-since">{t('aud.since')}</label>
          <input
            id="audit-since"
            type="date"
            value={since}
            onInput={(e) => filter(setSince)((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
      </div>
      <ErrorNote error={rows.error ?? people.error} />
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('aud.when')}</th>
              <th scope="col">{t('aud.who')}</th>
              <th scope="col">{t('aud.what')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('address')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.data?.map((r) => (
              <tr key={r.id}>
                <td>{r.createTime}</td>
                <td>{r.userName ?? '—'}</td>
                <td>{r.target ? `${r.action} ${r.target}` : r.action}</td>
                <td>{r.status}</td>
                <td>{r.ip}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.data?.length === 0 && <p>{t('aud.none')}</p>}
      <div class="actions">
        {before.length > 0 && (
          <button type="button" onClick={() => setBefore(before.slice(0, -1))}>
            {t('previous')}
          </button>
        )}
        {rows.data?.length === PAGE && (
          <button type="button" onClick={() => setBefore([...before, rows.data!.at(-1)!.id])}>
            {t('aud.older')}
          </button>
        )}
      </div>
    </>
  )
}
