import { slugOf } from '../../shared/slug.ts'
import type { ByLanguage } from './model.ts'
import { RESOURCE_STATUS } from './model.ts'

/** `usdtPrice` is stored in ten-thousandths (spec §4.1 notes: divide by 10000 for display). */
export const USDT_UNIT = 10_000

/** Two to four decimals ("12.50", "0.1999"), in integer arithmetic so no float artefact shows. */
export function formatUsdt(units: number): string {
  const fraction = String(units % USDT_UNIT)
    .padStart(4, '0')
    .replace(/0{1,2}$/, '')
  return `${Math.floor(units / USDT_UNIT)}.${fraction}`
}

/** The crawlable public product pages (spec §4.1 notes); a name that slugifies to nothing reads "product". */
export function productLinks(id: number, nameEn: string, nameZh: string): ByLanguage {
  return {
    en: `/en/products/${id}-${slugOf(nameEn) || 'product'}`,
    zh: `/cn/products/${id}-${slugOf(nameZh) || 'product'}`,
  }
}

/**
 * Escapes the characters sanitize-html escapes (`"` only inside attributes), so a card passed
 * through the content sanitizer on save comes out byte for byte the same.
 */
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;')

export interface CardInput {
  language: 'en' | 'zh'
  href: string
  name: string
  summary: string
  priceText: string
  status: number
}

const WORDS = {
  en: { price: 'Price: ', outOfStock: ' · Out of stock' },
  zh: { price: '价格：', outOfStock: ' · 缺货' },
} as const

/**
 * A product card for `contentHtml`: only tags and attributes the content sanitizer keeps (no
 * headings, which would enter the post's table of contents), every text escaped, and a plain
 * relative link crawlers follow to the product page.
 */
export function renderCard(card: CardInput): string {
  const words = WORDS[card.language]
  const price = `${words.price}${card.priceText} USDT${card.status === RESOURCE_STATUS.outOfStock ? words.outOfStock : ''}`
  return [
    `<aside class="product-card" lang="${card.language}">`,
    `<p class="product-card-name"><a href="${escapeAttribute(card.href)}" hreflang="${card.language}">${escapeText(card.name)}</a></p>`,
    card.summary ? `<p class="product-card-summary">${escapeText(card.summary)}</p>` : '',
    `<p class="product-card-price">${escapeText(price)}</p>`,
    `</aside>`,
  ].join('')
}
