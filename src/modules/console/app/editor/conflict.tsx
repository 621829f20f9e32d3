import { useState } from 'preact/hooks'
import { t } from '../i18n.ts'
import { differingFields, type PostForm } from './form.ts'

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/**
 * A save refused because someone else saved first: both versions side by side, field by field.
 * A field keeps the author's value by default only where the author changed it since `base` (the
 * version the edit started from), so this three-way merge loses neither side's work. `onResolve`
 * gets the merge, on top of the saved version.
 */
export function ConflictView(props: {
  base: PostForm
  mine: PostForm
  theirs: PostForm
  onResolve: (merged: PostForm) => void
  onCancel: (theirs: PostForm) => void
}) {
  const fields = differingFields(props.mine, props.theirs)
  const edited = new Set(differingFields(props.mine, props.base))
  const [keepMine, setKeepMine] = useState<Set<string>>(new Set(fields.filter((f) => edited.has(f))))
  const merged = (): PostForm => {
    const picked = Object.fromEntries(fields.filter((f) => keepMine.has(f)).map((f) => [f, props.mine[f]]))
    return { ...props.theirs, ...picked }
  }
  const choose = (field: string, mine: boolean) => {
    const next = new Set(keepMine)
    if (mine) next.add(field)
    else next.delete(field)
    setKeepMine(next)
  }
  return (
    <section class="card conflict" role="alertdialog" aria-label={t('conflict')}>
      <h2>{t('conflict')}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('fieldName')}</th>
            <th scope="col">{t('mine')}</th>
            <th scope="col">{t('theirs')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field}>
              <th scope="row">{field}</th>
              <td>
                <label class="check">
                  <input type="radio" name={`pick-${field}`} checked={keepMine.has(field)} onChange={() => choose(field, true)} />{' '}
                  {t('keepMine')}
                </label>
                <pre class="value">{shown(props.mine[field])}</pre>
              </td>
              <td>
                <label class="check">
                  <input type="radio" name={`pick-${field}`} checked={!keepMine.has(field)} onChange={() => choose(field, false)} />{' '}
                  {t('keepTheirs')}
                </label>
                <pre class="value">{shown(props.theirs[field])}</pre>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="actions">
        <button type="button" onClick={() => props.onResolve(merged())}>
          {t('mergeSave')}
        </button>
        <button type="button" onClick={() => props.onCancel(props.theirs)}>
          {t('keepAllTheirs')}
        </button>
      </div>
    </section>
  )
}
