import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type Page } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote } from '../ui.tsx'
import { fieldId, SelectField, TextField } from './fields.tsx'
import type { StepProps } from './form.ts'
import { uploadImage } from './media.ts'

interface Resource {
  id: number
  nameEn: string
  nameZh: string
  cardHtml: { en: string; zh: string }
}

/** Finds products over the resources search and inserts the ready-made card into the body. */
function ProductPicker({ form, set }: StepProps) {
  const [keywords, setKeywords] = useState('')
  const [found, setFound] = useState<Resource[]>([])
  const [error, setError] = useState<unknown>(null)
  const search = () =>
    api<Page<Resource>>('POST', '/api/v1/blog/resources/search', { keywords, size: 5 }).then((page) => setFound(page.records), setError)
  const insert = (r: Resource) => {
    const ids = form.relatedProductIds
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    set({ body: `${form.body}\n\n${r.cardHtml[form.language]}\n`, relatedProductIds: [...new Set([...ids, String(r.id)])].join(',') })
  }
  return (
    <div class="picker">
      <div class="field inline">
        <label for="product-search">{t('productSearch')}</label>
        <input id="product-search" value={keywords} onInput={(e) => setKeywords(e.currentTarget.value)} />
        <button type="button" onClick={search}>
          {t('productSearch')}
        </button>
      </div>
      <ErrorNote error={error} />
      <ul class="rows">
        {found.map((r) => (
          <li key={r.id}>
            {form.language === 'zh' ? r.nameZh || r.nameEn : r.nameEn}{' '}
            <button type="button" onClick={() => insert(r)}>
              {t('insertCard')} {r.id}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** CodeMirror is fetched when a body is first edited, so its chunk stays off every other console page. */
let bodyEditor: typeof import('./body-editor.tsx').BodyEditor | null = null
function useBodyEditor(onError: (e: unknown) => void) {
  const [loaded, setLoaded] = useState(() => bodyEditor)
  useEffect(() => {
    if (!loaded) import('./body-editor.tsx').then(({ BodyEditor }) => setLoaded(() => (bodyEditor = BodyEditor)), onError)
  }, [])
  return loaded
}

/** The content step: the body (Markdown or HTML) with image upload, and the product-card picker. */
export function Content(props: StepProps) {
  const { form, set } = props
  const [error, setError] = useState<unknown>(null)
  const insert = useRef<((snippet: string) => void) | null>(null)
  const BodyEditor = useBodyEditor(setError)
  const upload = (file: File) =>
    uploadImage(file, form.bodyFormat).catch((e: unknown) => {
      setError(e)
      return null
    })
  const labelId = `${fieldId('contentHtml')}-label`
  return (
    <>
      <SelectField
        name="bodyFormat"
        label="fBodyFormat"
        value={form.bodyFormat}
        options={[
          { value: 'markdown', label: 'Markdown' },
          { value: 'html', label: 'HTML' },
        ]}
        onChange={(v) => set({ bodyFormat: v as 'markdown' | 'html' })}
      />
      <div class="field">
        <label id={labelId} onClick={() => document.getElementById(fieldId('contentHtml'))?.focus()}>
          {t('fBody')}
        </label>
        {BodyEditor && (
          <BodyEditor
            id={fieldId('contentHtml')}
            labelId={labelId}
            value={form.body}
            format={form.bodyFormat}
            lang={form.language === 'zh' ? 'zh-CN' : 'en'}
            onChange={(body) => set({ body })}
            onFile={upload}
            insertRef={insert}
          />
        )}
      </div>
      <div class="field">
        <label for="f-upload">{t('uploadImage')}</label>
        <input
          id="f-upload"
          type="file"
          accept="image/*"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0]
            if (file?.type.startsWith('image/')) void upload(file).then((snippet) => snippet && insert.current?.(snippet))
          }}
        />
      </div>
      <ErrorNote error={error} />
      <ProductPicker {...props} />
      <TextField
        name="relatedProductIds"
        label="fProducts"
        value={form.relatedProductIds}
        onInput={(relatedProductIds) => set({ relatedProductIds })}
      />
    </>
  )
}
