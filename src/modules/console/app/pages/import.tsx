import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t, type Key } from '../i18n.ts'
import { ErrorNote, Section, useLoad } from '../ui.tsx'
import { ImportReportView, type ArchiveReport, type SourceReport } from './import-report.tsx'

interface Run {
  id: number
  format: string
  fileName: string
  state: 'running' | 'done' | 'failed' | 'interrupted'
  postsDone: number
  createdAt: string
  error: string | null
  report?: SourceReport | ArchiveReport | null
}

const BASE = '/api/admin/blog/imports'
/** How often a running import is asked for its progress. */
const POLL_MS = 1000

const FORMATS = ['wordpress', 'ghost', 'markdown', 'folio'] as const
const ACCEPT: Record<(typeof FORMATS)[number], string> = {
  wordpress: '.xml,application/xml,text/xml',
  ghost: '.json,application/json',
  markdown: '.tar,.tgz,.gz,application/x-tar,application/gzip',
  folio: '.gz,.tgz,application/gzip',
}

/** The CLI's options, each a select whose first option is the CLI's default. */
const CHOICES = [
  {
    name: 'language',
    label: 'imp.language',
    options: [
      ['auto', 'imp.auto'],
      ['en', 'imp.en'],
      ['zh', 'imp.zh'],
    ],
  },
  {
    name: 'status',
    label: 'imp.status',
    options: [
      ['keep', 'imp.keep'],
      ['gate', 'imp.gate'],
    ],
  },
  {
    name: 'media',
    label: 'imp.media',
    options: [
      ['keep', 'imp.mediaKeep'],
      ['fetch', 'imp.mediaFetch'],
    ],
  },
] as const satisfies readonly { name: string; label: Key; options: readonly (readonly [string, Key])[] }[]

function Select(props: {
  id: string
  label: string
  value: string
  options: readonly (readonly [string, Key])[]
  onChange: (v: string) => void
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {t(label)}
          </option>
        ))}
      </select>
    </div>
  )
}

/** A run's state in words, its progress while it runs, its error or report when it ends. */
function RunView({ run }: { run: Run }) {
  const heading: Key = run.state === 'done' ? 'imp.done' : run.state === 'running' ? 'imp.running' : `imp.${run.state}`
  return (
    <>
      <div class="card" role="status">
        <h2>
          {t(heading)} (#{run.id}, {run.fileName})
        </h2>
        <p>
          {run.postsDone} {t('imp.postsDone')}
        </p>
        {run.error && <p class="error">{run.error}</p>}
        {run.state === 'done' && (
          <a href={`${BASE}/${run.id}/report`} download>
            {t('imp.download')}
          </a>
        )}
      </div>
      {run.state === 'done' && run.report && <ImportReportView report={run.report} />}
    </>
  )
}

/** The console's import: upload an export, start it in the server's background, watch it, read its report. */
export function Import() {
  const history = useLoad(() => api<Run[]>('GET', `${BASE}/`))
  const [format, setFormat] = useState<(typeof FORMATS)[number]>('wordpress')
  const [file, setFile] = useState<File | null>(null)
  const [choices, setChoices] = useState<Record<(typeof CHOICES)[number]['name'], string>>({
    language: 'auto',
    status: 'keep',
    media: 'keep',
  })
  const [dryRun, setDryRun] = useState(false)
  const [shown, setShown] = useState<number | null>(null)
  const [run, setRun] = useState<Run | null>(null)
  const [error, setError] = useState<unknown>(null)

  // A run still going when the page opens (or after a reload) is followed again.
  useEffect(() => {
    const going = history.data?.find((r) => r.state === 'running')
    if (going && shown === null) setShown(going.id)
  }, [history.data])
  // The shown run, polled while it runs.
  useEffect(() => {
    if (shown === null) return
    let timer: ReturnType<typeof setTimeout> | undefined
    let live = true
    const poll = () =>
      api<Run>('GET', `${BASE}/${shown}`).then((next) => {
        if (!live) return
        setRun(next)
        if (next.state === 'running') timer = setTimeout(poll, POLL_MS)
        else void history.reload()
      }, setError)
    void poll()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [shown])

  const start = (event: Event) => {
    event.preventDefault()
    if (!file) return
    const body = new FormData()
    body.append('file', file)
    body.append('format', format)
    if (format !== 'folio') {
      for (const [name, value] of Object.entries(choices)) body.append(name, value)
      body.append('dryRun', dryRun ? '1' : '0')
    }
    setError(null)
    setRun(null)
    api<Run>('POST', `${BASE}/start`, body).then((started) => setShown(started.id), setError)
  }
  const sourceOptions = format !== 'folio'
  return (
    <>
      <h1>{t('imp.title')}</h1>
      <form class="card" onSubmit={start}>
        <Select
          id="import-format"
          label={t('imp.format')}
          value={format}
          options={FORMATS.map((f) => [f, `imp.${f}`])}
          onChange={(v) => setFormat(v as (typeof FORMATS)[number])}
        />
        <div class="field">
          <label for="import-file">{t('imp.file')}</label>
          <input
            id="import-file"
            type="file"
            accept={ACCEPT[format]}
            aria-describedby="import-file-hint"
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
          <p class="hint" id="import-file-hint">
            {t('imp.fileHint')}
          </p>
        </div>
        {sourceOptions && (
          <>
            {CHOICES.map((c) => (
              <Select
                key={c.name}
                id={`import-${c.name}`}
                label={t(c.label)}
                value={choices[c.name]}
                options={c.options}
                onChange={(value) => setChoices({ ...choices, [c.name]: value })}
              />
            ))}
            <label class="check">
              <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun((e.currentTarget as HTMLInputElement).checked)} />{' '}
              {t('imp.dryRun')}
            </label>
          </>
        )}
        <button type="submit" disabled={!file || run?.state === 'running'}>
          {t('imp.start')}
        </button>
      </form>
      <div class="faults">
        <ErrorNote error={error ?? history.error} />
      </div>
      {run && <RunView run={run} />}
      {history.data && history.data.length > 0 && (
        <Section title={t('imp.history')}>
          <ul>
            {history.data.map((r) => (
              <li key={r.id}>
                #{r.id} {r.fileName} ({r.format}, {r.state}, {r.createdAt} UTC){' '}
                <button type="button" onClick={() => setShown(r.id)} aria-label={`${t('imp.show')} #${r.id}`}>
                  {t('imp.show')}
                </button>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  )
}
