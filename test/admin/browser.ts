import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'

const AXE = readFileSync(resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')

/**
 * axe-core's serious and critical violations on the page as it stands, in light and dark, at
 * 1280 and 375 px wide. axe is added through CDP (addScriptTag would be an inline script the
 * console's CSP refuses), then run in the page.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const found: string[] = []
  for (const colorScheme of ['light', 'dark'] as const)
    for (const width of [1280, 375]) {
      await page.emulateMedia({ colorScheme })
      await page.setViewportSize({ width, height: 900 })
      if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE)
      const result = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] })`)) as {
        violations: { id: string; impact: string; nodes: { target: string[] }[] }[]
      }
      for (const v of result.violations)
        if (v.impact === 'serious' || v.impact === 'critical')
          found.push(`${colorScheme} ${width}px ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
  return found
}

/** Counts payloads that ran: every corpus payload calls `window.__pwned`; dialogs count too. */
export async function watchForPayloads(page: Page): Promise<string[]> {
  const hits: string[] = []
  await page.exposeFunction('__pwned', (tag: unknown) => void hits.push(String(tag)))
  page.on('dialog', (dialog) => {
    hits.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  return hits
}
