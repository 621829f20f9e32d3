/** Every text field's documented upper bound (docs/api.md, "Limits"), apart from the request schemas that state them. */
export const LIMITS = {
  name: 200,
  slug: 200,
  title: 200,
  shortText: 500,
  text: 2_000,
  longText: 10_000,
  url: 2_048,
  contentHtml: 500_000,
  /** Lower than HTML: converting adversarial Markdown costs several microseconds a character. */
  contentMarkdown: 200_000,
  listItems: 20,
  faqBlocks: 50,
  maxPageSize: 100,
} as const
