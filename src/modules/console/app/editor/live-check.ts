import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { checkable, requestOf, type PostForm } from './form.ts'

export type Step = 'basic' | 'content' | 'seo' | 'aeo' | 'publish'
export type AutoFixType = 'slug' | 'seo_title' | 'seo_description' | 'canonical_self' | 'cover_alt'

export interface CheckItem {
  code: string
  label: string
  message: string
  why: string
  fixAction: string
  passed: boolean
  blocking: boolean
  targetStep: Step
  targetField: string
  autoFixType: AutoFixType | null
}

export interface CheckResult {
  score: number
  aeoScore: number
  canPublish: boolean
  generatedSlug: string
  generatedSeoTitle: string
  generatedSeoDescription: string
  items: CheckItem[]
}

/** At most one check a second while the author types (issue 26 item 3). */
export const CHECK_DELAY_MS = 1000

/**
 * The SEO check of the form as it stands, re-run a second after the last edit. Each run is
 * numbered; an answer that arrives after a newer run started is dropped, so the panel never
 * shows a check of older text than the last one asked.
 */
export function useLiveCheck(form: PostForm) {
  const [result, setResult] = useState<CheckResult | null>(null)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const latest = useRef(0)
  const request = checkable(form) ? JSON.stringify(requestOf(form)) : null
  useEffect(() => {
    if (request === null) return
    setPending(true)
    const timer = setTimeout(() => {
      const run = ++latest.current
      api<CheckResult>('POST', '/api/v1/blog/posts/check', JSON.parse(request)).then(
        (answer) => {
          if (run !== latest.current) return
          setResult(answer)
          setError(null)
          setPending(false)
        },
        (e) => {
          if (run !== latest.current) return
          setError(e)
          setPending(false)
        },
      )
    }, CHECK_DELAY_MS)
    return () => clearTimeout(timer)
  }, [request])
  return { result: request === null ? null : result, pending, error }
}
