import type { Language } from '../../../../shared/language.ts'
import { fieldLength, width } from '../../../seo/text/units.ts'
import { t, type Key } from '../i18n.ts'
import { Select, type Option } from '../ui.tsx'

/** The id of a field's control: the check's `targetField` names it, so an item can move focus there. */
export const fieldId = (targetField: string) => `f-${targetField === 'contentHtml' ? 'body' : targetField}`

type Range = { min?: number; max?: number }

/** A live length in the rule's own unit: width for the SEO title (CJK counts 2), characters otherwise. */
export function Counter(props: { text: string; unit: 'chars' | 'width'; range: Range; id: string }) {
  const n = props.unit === 'width' ? width(props.text) : fieldLength(props.text)
  const inRange = (props.range.min === undefined || n >= props.range.min) && (props.range.max === undefined || n <= props.range.max)
  const aim = props.range.min === undefined ? `≤ ${props.range.max}` : `${props.range.min}–${props.range.max}`
  return (
    <p class={`counter ${inRange ? 'ok' : 'warning'}`} id={props.id} aria-live="polite">
      {n} {t(props.unit === 'width' ? 'counterWidth' : 'counterChars')} · {t('aim')} {aim}
    </p>
  )
}

export type TextFieldProps = {
  name: string
  label: Key
  value: string
  onInput: (value: string) => void
  multiline?: boolean
  rows?: number
  counter?: { unit: 'chars' | 'width'; range: Range }
  type?: 'text' | 'url'
  lang?: Language
}

/** One labelled text control of the editor, with its counter when the rules measure it. */
export function TextField(props: TextFieldProps) {
  const id = fieldId(props.name)
  const attrs = {
    id,
    name: props.name,
    value: props.value,
    lang: props.lang === 'zh' ? 'zh-CN' : props.lang,
    'aria-describedby': props.counter ? `${id}-count` : undefined,
    onInput: (e: Event) => props.onInput((e.currentTarget as HTMLInputElement).value),
  }
  return (
    <div class="field">
      <label for={id}>{t(props.label)}</label>
      {props.multiline ? <textarea rows={props.rows ?? 3} {...attrs} /> : <input type={(props.type ?? 'text') as 'text'} {...attrs} />}
      {props.counter && <Counter text={props.value} unit={props.counter.unit} range={props.counter.range} id={`${id}-count`} />}
    </div>
  )
}

/** A post field's select (ui.tsx `Select`), its id from the field's name. */
export const SelectField = (props: { name: string; label: Key; value: string; options: Option[]; onChange: (value: string) => void }) => (
  <Select id={fieldId(props.name)} label={props.label} value={props.value} options={props.options} onChange={props.onChange} />
)
