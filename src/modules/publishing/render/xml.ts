/**
 * The one place XML text is escaped. Every renderer builds documents from `el` and `text`, so
 * no caller ever concatenates unescaped strings into markup. Characters XML 1.0 forbids
 * (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are dropped rather than emitted.
 */
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

export const escapeXml = (value: string): string => value.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!)

/** Markup that is already safe: only `el` makes it. */
export interface Xml {
  readonly xml: string
}

export type Attrs = Readonly<Record<string, string | number | undefined>>

/** An element; string children are escaped text, `undefined` children and attributes are left out. */
export function el(name: string, attrs: Attrs = {}, ...children: (Xml | string | number | undefined)[]): Xml {
  const attributes = Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('')
  const inner = children
    .filter((c) => c !== undefined)
    .map((c) => (typeof c === 'object' ? c.xml : escapeXml(String(c))))
    .join('')
  return { xml: inner ? `<${name}${attributes}>${inner}</${name}>` : `<${name}${attributes}/>` }
}

/** A whole document with its declaration. */
export const xmlDocument = (root: Xml): string => `<?xml version="1.0" encoding="UTF-8"?>\n${root.xml}\n`
