import { t, type Key } from '../i18n.ts'
import { ErrorNote } from '../ui.tsx'
import type { CheckItem, CheckResult, Step } from './live-check.ts'

const STEP_LABELS: Record<Step, Key> = {
  basic: 'stepBasic',
  content: 'stepContent',
  seo: 'stepSeo',
  aeo: 'stepAeo',
  publish: 'stepPublish',
}

/** The live check: both scores, then each step's failed items with their message, why and fix. */
export function CheckPanel(props: {
  result: CheckResult | null
  pending: boolean
  error: unknown
  onGo: (item: CheckItem) => void
  onFix: (item: CheckItem) => void
  onApplyAll: (() => void) | null
}) {
  const { result } = props
  const failed = result?.items.filter((i) => !i.passed) ?? []
  return (
    <aside class="card check-panel" aria-label={t('check')}>
      <h2>{t('check')}</h2>
      <p aria-live="polite" class="hint">
        {props.pending ? t('checking') : result ? '' : t('checkWaiting')}
      </p>
      <ErrorNote error={props.error} />
      {result && (
        <>
          <dl class="figures scores">
            <dt>{t('seoScore')}</dt>
            <dd data-testid="seo-score">{result.score}</dd>
            <dt>{t('aeoScore')}</dt>
            <dd data-testid="aeo-score">{result.aeoScore}</dd>
          </dl>
          {props.onApplyAll && failed.some((i) => i.autoFixType) && (
            <button type="button" onClick={props.onApplyAll}>
              {t('applySafeFixes')}
            </button>
          )}
          {(Object.keys(STEP_LABELS) as Step[]).map((step) => {
            const items = failed.filter((i) => i.targetStep === step)
            if (!items.length) return null
            return (
              <section key={step} aria-label={t(STEP_LABELS[step])}>
                <h3>{t(STEP_LABELS[step])}</h3>
                <ul class="items">
                  {items.map((item) => (
                    <li key={item.code} class={item.blocking ? 'blocking' : 'advice'}>
                      <button type="button" class="link" onClick={() => props.onGo(item)}>
                        {item.label}
                        {item.blocking ? ` (${t('blocking')})` : ''}
                      </button>
                      <p>{item.message}</p>
                      <p class="hint">
                        {item.why} {item.fixAction}
                      </p>
                      {item.autoFixType && (
                        <button type="button" onClick={() => props.onFix(item)}>
                          {t('fix')}: {item.label}
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              </section>
            )
          })}
        </>
      )}
    </aside>
  )
}
