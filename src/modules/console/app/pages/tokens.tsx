import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { CheckboxGroup, ErrorNote, Field, Section, useLoad } from '../ui.tsx'

interface TokenRow {
  id: number
  name: string
  maskedToken: string
  scopes: string[]
  createTime: string
  lastUsedAt: string | null
  revoked: boolean
}
interface CallRow {
  id: number
  time: string
  method: string
  path: string
  scope: string | null
  status: number
  code: string | null
  message: string | null
  ip: string
  durationMs: number
}
const SCOPES = ['blog:read', 'blog:write', 'blog:publish', 'blog:admin']
const BASE = '/api/admin/blog/tokens'

/** The plain token of a create or rotate, shown once with a copy button and the warning. */
function IssuedToken({ token }: { token: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <div class="card issued" role="status">
      <p class="warning">{t('tokenOnce')}</p>
      <label for="issued-token">{t('newToken')}</label>
      <input id="issued-token" type="text" readOnly value={token} />
      <button type="button" onClick={() => navigator.clipboard.writeText(token).then(() => setCopied(true))}>
        {copied ? t('copied') : t('copy')}
      </button>
    </div>
  )
}

function CallLog({ token }: { token: TokenRow }) {
  const [outcome, setOutcome] = useState('')
  const [path, setPath] = useState('')
  const query = new URLSearchParams({ ...(outcome ? { outcome } : {}), ...(path ? { path } : {}) })
  const calls = useLoad(() => api<CallRow[]>('GET', `${BASE}/${token.id}/calls?${query}`), [token.id, outcome, path])
  return (
    <Section title={`${t('callLog')}: ${token.name}`}>
      <div class="toolbar">
        <div class="field inline">
          <label for="call-outcome">{t('outcome')}</label>
          <select id="call-outcome" value={outcome} onChange={(e) => setOutcome((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{t('statusAll')}</option>
            <option value="ok">{t('succeeded')}</option>
            <option value="failed">{t('failed')}</option>
          </select>
        </div>
        <Field label={t('pathContains')} name="call-path" value={path} onInput={setPath} required={false} />
      </div>
      <ErrorNote error={calls.error} />
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('time')}</th>
              <th scope="col">{t('method')}</th>
              <th scope="col">{t('path')}</th>
              <th scope="col">{t('scope')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('message')}</th>
              <th scope="col">{t('address')}</th>
              <th scope="col">{t('duration')}</th>
            </tr>
          </thead>
          <tbody>
            {calls.data?.map((c) => (
              <tr key={c.id}>
                <td>{c.time}</td>
                <td>{c.method}</td>
                <td>{c.path}</td>
                <td>{c.scope ?? '—'}</td>
                <td>
                  {c.status} {c.code ?? ''}
                </td>
                <td>{c.message ?? ''}</td>
                <td>{c.ip}</td>
                <td>{c.durationMs} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {calls.data?.length === 0 && <p>{t('noCalls')}</p>}
    </Section>
  )
}

export function Tokens() {
  const tokens = useLoad(() => api<TokenRow[]>('GET', `${BASE}/`))
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<string[]>(['blog:read'])
  const [issued, setIssued] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [viewing, setViewing] = useState<TokenRow | null>(null)
  const act = (promise: Promise<unknown>) =>
    promise.then((result) => {
      setError(null)
      if (result && typeof result === 'object' && 'token' in result) setIssued(String(result.token))
      void tokens.reload()
    }, setError)
  const create = (event: Event) => {
    event.preventDefault()
    void act(api('POST', `${BASE}/save`, { name, scopes }))
  }
  return (
    <>
      <h1>{t('tokens')}</h1>
      {issued && <IssuedToken token={issued} />}
      <ErrorNote error={error ?? tokens.error} />
      <form class="card" onSubmit={create}>
        <h2>{t('createToken')}</h2>
        <Field label={t('tokenName')} name="token-name" value={name} onInput={setName} />
        <CheckboxGroup legend={t('scopes')} options={SCOPES} chosen={scopes} onChange={setScopes} />
        <button type="submit">{t('createToken')}</button>
      </form>
      <ul class="comments">
        {tokens.data?.map((token) => (
          <li key={token.id} class="card" aria-label={token.name}>
            <h2>{token.name}</h2>
            <dl class="meta">
              <dt>{t('token')}</dt>
              <dd>
                <code>{token.maskedToken}</code>
              </dd>
              <dt>{t('scopes')}</dt>
              <dd>{token.scopes.join(', ')}</dd>
              <dt>{t('created')}</dt>
              <dd>{token.createTime} UTC</dd>
              <dt>{t('lastUsed')}</dt>
              <dd>{token.lastUsedAt ? `${token.lastUsedAt} UTC` : t('never')}</dd>
              <dt>{t('state')}</dt>
              <dd>{token.revoked ? t('revoked') : t('active')}</dd>
            </dl>
            <div class="actions">
              <button type="button" onClick={() => setViewing(token)}>
                {t('showCalls')}
              </button>
              {!token.revoked && (
                <>
                  <button type="button" onClick={() => act(api('POST', `${BASE}/${token.id}/rotate`))}>
                    {t('rotate')}
                  </button>
                  <button type="button" onClick={() => act(api('POST', `${BASE}/${token.id}/revoke`))}>
                    {t('revoke')}
                  </button>
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
      {viewing && <CallLog token={viewing} />}
    </>
  )
}
