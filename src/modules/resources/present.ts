import { inLanguage, nameIn } from '../../shared/language.ts'
import type { resources } from '../../db/schema/index.ts'
import { formatUsdt, productLinks, renderCard, USDT_UNIT } from './card.ts'
import type { ResourceRes } from './model.ts'
import { summarize } from './text.ts'

export type ResourceRow = typeof resources.$inferSelect

/** `BlogResourceRes` with its extras; `categoryName` is the category's English name (its Chinese one when that is empty). */
export function toResourceRes(row: ResourceRow, category: { nameEn: string; nameZh: string } | null): ResourceRes {
  const links = productLinks(row.id, row.nameEn, row.nameZh)
  const summaryEn = summarize(row.descriptionTextEn)
  const summaryZh = summarize(row.descriptionTextZh)
  const displayPriceText = formatUsdt(row.usdtPrice)
  const card = (language: 'en' | 'zh', name: string, summary: string) =>
    renderCard({ language, href: links[language], name, summary, priceText: displayPriceText, status: row.status })
  return {
    id: row.id,
    productId: row.productId,
    nameEn: row.nameEn,
    nameZh: row.nameZh,
    descriptionEn: row.descriptionEn,
    descriptionZh: row.descriptionZh,
    categoryCode: row.categoryCode,
    categoryName: category ? nameIn('en', category) : '',
    stock: row.stock,
    cnyPrice: row.cnyPrice,
    usdtPrice: row.usdtPrice,
    sourceType: row.sourceType,
    status: row.status,
    links,
    summaryEn,
    summaryZh,
    displayPrice: row.usdtPrice / USDT_UNIT,
    displayPriceText,
    // A Chinese card falls back to the English text a product lacks in Chinese, and vice versa.
    cardHtml: {
      en: card('en', nameIn('en', row), inLanguage('en', summaryEn, summaryZh)),
      zh: card('zh', nameIn('zh', row), inLanguage('zh', summaryEn, summaryZh)),
    },
  }
}
