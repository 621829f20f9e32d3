import { SaxesParser } from 'saxes'
import { ImportFileError } from './model.ts'

/** A text field larger than this is a hostile or broken file, not a post. */
export const MAX_FIELD_BYTES = 8 * 1024 * 1024
/** WXR nests five deep; a deeper file is refused before it can cost anything. */
const MAX_DEPTH = 32

export interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void
  /** An element ended, with its own text (CDATA included); `line` for error messages. */
  close(name: string, text: string, attributes: Record<string, string>, line: number): void
}

/**
 * Reads an XML file as a stream with saxes: the file is never held whole, only the open
 * elements' texts. A DOCTYPE is refused (no DTD, so no external entity and no entity expansion:
 * saxes knows only the five predefined entities and character references, and an undefined entity
 * is an error); nesting and text sizes are bounded. `drain` is called after every chunk, so the
 * caller can hand on what it collected while the file is read.
 */
export async function* streamXml<T>(path: string, handlers: XmlHandlers, drain: () => T[]): AsyncGenerator<T> {
  const parser = new SaxesParser({ xmlns: false, position: true })
  const stack: { name: string; attributes: Record<string, string>; text: string }[] = []
  const fail = (message: string): never => {
    throw new ImportFileError(`line ${parser.line}`, message)
  }
  parser.on('error', (error) => fail(error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')))
  parser.on('doctype', () => fail('a DOCTYPE is refused (no DTD or entity declarations in an export)'))
  parser.on('opentag', (node) => {
    if (stack.length >= MAX_DEPTH) fail(`elements nest deeper than ${MAX_DEPTH}`)
    const attributes = node.attributes as Record<string, string>
    stack.push({ name: node.name, attributes, text: '' })
    handlers.open(node.name, attributes)
  })
  const addText = (text: string) => {
    const top = stack[stack.length - 1]
    if (!top) return
    if (top.text.length + text.length > MAX_FIELD_BYTES) fail(`<${top.name}> is larger than ${MAX_FIELD_BYTES / 1024 / 1024} MB`)
    top.text += text
  }
  parser.on('text', addText)
  parser.on('cdata', addText)
  parser.on('closetag', () => {
    const top = stack.pop()!
    handlers.close(top.name, top.text, top.attributes, parser.line)
  })
  const stream = Bun.file(path).stream().pipeThrough(new TextDecoderStream())
  for await (const chunk of stream) {
    parser.write(chunk)
    yield* drain()
  }
  parser.close()
  yield* drain()
}
