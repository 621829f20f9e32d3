/**
 * Where a JSON text first breaks the grammar (RFC 8259), as 1-based line and column. Bun's
 * `JSON.parse` errors carry no position, and an operator fixing a large import file needs one;
 * this scanner only runs after `JSON.parse` has already refused the text.
 */
export function jsonErrorPosition(text: string): { line: number; column: number } {
  const offset = firstErrorOffset(text)
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return { line, column: offset - before.lastIndexOf('\n') }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y

function firstErrorOffset(text: string): number {
  let i = 0
  const fail = (): never => {
    throw i
  }
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const expect = (char: string) => (text[i] === char ? i++ : fail())
  const sticky = (pattern: RegExp) => {
    pattern.lastIndex = i
    if (!pattern.exec(text)) fail()
    i = pattern.lastIndex
  }
  const string = () => {
    expect('"')
    sticky(STRING_BODY)
    expect('"')
  }
  const sequence = (close: string, item: () => void) => {
    i++
    space()
    if (text[i] === close) return void i++
    for (;;) {
      item()
      space()
      if (text[i] === close) return void i++
      expect(',')
    }
  }
  const value = (): void => {
    space()
    const c = text[i]
    if (c === '{')
      sequence('}', () => {
        space()
        string()
        space()
        expect(':')
        value()
      })
    else if (c === '[') sequence(']', value)
    else if (c === '"') string()
    else {
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i))
      if (word) i += word.length
      else sticky(NUMBER)
    }
  }
  try {
    value()
    space()
    if (i < text.length) fail()
    return text.length
  } catch (offset) {
    if (typeof offset !== 'number') throw offset
    return offset
  }
}
