import type { TocItem } from '../../seo/types.ts'

/** Entries past which the contents start folded: a long list would push the body a screen down. */
const TOC_OPEN_MAX = 8

interface Entry {
  item: TocItem
  children: TocItem[]
}

/** h3 entries nest under the h2 before them (so they number 1, 2, 3 within it); one before any h2 stands alone. */
export function tocTree(items: readonly TocItem[]): Entry[] {
  const tree: Entry[] = []
  for (const item of items) {
    const parent = tree[tree.length - 1]
    if (item.level > 2 && parent && parent.item.level === 2) parent.children.push(item)
    else tree.push({ item, children: [] })
  }
  return tree
}

/** The table of contents, a `<details>` that folds without script: open when short, folded when long. */
export function Toc({ items, heading }: { items: readonly TocItem[]; heading: string }) {
  return (
    <nav class="toc" aria-labelledby="toc-heading">
      <details open={items.length <= TOC_OPEN_MAX}>
        <summary>
          <h2 id="toc-heading">{heading}</h2>
        </summary>
        <ol>
          {tocTree(items).map(({ item, children }) => (
            <li>
              <a href={`#${item.id}`}>{item.text}</a>
              {children.length ? (
                <ol>
                  {children.map((child) => (
                    <li>
                      <a href={`#${child.id}`}>{child.text}</a>
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      </details>
    </nav>
  )
}
