import { markdownToHtml } from '../posts/markdown.ts'
import { attrsOf, embedHtml } from './wordpress-body.ts'

/**
 * A Markdown body as HTML: Hugo shortcodes (`{{< figure … >}}`, `{{% … %}}`) and Jekyll Liquid tags
 * (`{% highlight %}`, `{% include %}`) converted or removed with a note (never left as raw template
 * text), then Folio's own Markdown path (posts/markdown.ts). Relative images are listed in `notes`:
 * they lived beside the file and are not at any public address. One left-to-right scan per pass.
 */

const TEMPLATE_TAG =
  /\{\{([<%])\s{0,20}(\/?)([\w-]{1,40})([^\n{}]{0,2000}?)\s{0,20}[>%]\}\}|\{%-?\s{0,20}([\w-]{1,40})([^\n{}]{0,2000}?)-?%\}/g

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
const positional = (text: string) => /^\s*"?([^\s"]{1,2000})/.exec(text)?.[1] ?? ''

type Converter = (args: string) => string

const CONVERTERS: Record<string, Converter> = {
  figure: (args) => {
    const a = attrsOf(args)
    const caption = a.caption || a.title || ''
    return `<figure><img src="${escapeAttr(a.src ?? '')}" alt="${escapeAttr(a.alt ?? caption)}">${caption ? `<figcaption>${escapeAttr(caption)}</figcaption>` : ''}</figure>`
  },
  youtube: (args) => embedHtml(`https://youtu.be/${attrsOf(args).id ?? positional(args)}`),
  vimeo: (args) => embedHtml(`https://vimeo.com/${attrsOf(args).id ?? positional(args)}`),
  // Code blocks become Markdown fences; the closing tag closes the fence.
  highlight: (args) => '\n```' + (positional(args).replace(/[^\w+-]/g, '') || ''),
  '/highlight': () => '```\n',
  endhighlight: () => '```\n',
  raw: () => '',
  endraw: () => '',
}

export function markdownBody(source: string, notes: string[]): string {
  const converted = source.replace(TEMPLATE_TAG, (_whole, hugoKind, closing, hugoName, hugoArgs, liquidName, liquidArgs) => {
    const name = ((hugoKind ? `${closing}${hugoName}` : liquidName) as string).toLowerCase()
    const converter = CONVERTERS[name]
    if (converter) return converter((hugoKind ? hugoArgs : liquidArgs) ?? '')
    if (!name.startsWith('/') && !name.startsWith('end')) notes.push(`template tag ${name} removed`)
    return ''
  })
  const html = markdownToHtml(converted)
  for (const m of html.matchAll(/<img\b[^<>]{0,4000}?\bsrc="([^"]{0,2000})"/gi)) {
    const src = m[1]!
    if (!/^(https?:)?\/\//i.test(src) && !src.startsWith('data:')) notes.push(`relative image not carried: ${src.slice(0, 200)}`)
  }
  return html
}
