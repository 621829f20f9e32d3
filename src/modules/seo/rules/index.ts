import type { Rule } from '../rule.ts'
import { answerSummary } from './answer-summary.ts'
import { authorPresent } from './author-present.ts'
import { brokenMediaUrl } from './broken-media-url.ts'
import { canonicalValid } from './canonical-valid.ts'
import { citations } from './citations.ts'
import { contentLength } from './content-length.ts'
import { coverAlt } from './cover-alt.ts'
import { coverPresent } from './cover-present.ts'
import { duplicateSlug } from './duplicate-slug.ts'
import { faqComplete } from './faq-complete.ts'
import { faqPresent } from './faq-present.ts'
import { headingOrder } from './heading-order.ts'
import { hreflangPair } from './hreflang-pair.ts'
import { imageAlt } from './image-alt.ts'
import { internalLinks } from './internal-links.ts'
import { keyTakeaways } from './key-takeaways.ts'
import { languageMatch } from './language-match.ts'
import { noindexWarning } from './noindex-warning.ts'
import { outboundLinks } from './outbound-links.ts'
import { paragraphLength } from './paragraph-length.ts'
import { passiveVoice } from './passive-voice.ts'
import { questionHeadings } from './question-headings.ts'
import { readingEase } from './reading-ease.ts'
import { reviewedRecent } from './reviewed-recent.ts'
import { sentenceLength } from './sentence-length.ts'
import { seoDescriptionLength } from './seo-description-length.ts'
import { seoTitleLength } from './seo-title-length.ts'
import { singleH1 } from './single-h1.ts'
import { slugFormat } from './slug-format.ts'
import { subheadingDistribution } from './subheading-distribution.ts'
import { summaryPresent } from './summary-present.ts'
import { thinContent } from './thin-content.ts'
import { titleLength } from './title-length.ts'

/** The 33 rules in catalogue order (§4): results are returned in this order. */
export const RULES: readonly Rule[] = [
  titleLength,
  slugFormat,
  languageMatch,
  summaryPresent,
  coverPresent,
  coverAlt,
  thinContent,
  contentLength,
  singleH1,
  headingOrder,
  subheadingDistribution,
  paragraphLength,
  sentenceLength,
  readingEase,
  passiveVoice,
  imageAlt,
  internalLinks,
  outboundLinks,
  brokenMediaUrl,
  seoTitleLength,
  seoDescriptionLength,
  canonicalValid,
  hreflangPair,
  answerSummary,
  keyTakeaways,
  faqPresent,
  faqComplete,
  questionHeadings,
  authorPresent,
  reviewedRecent,
  citations,
  duplicateSlug,
  noindexWarning,
]
