// Claps and comments for Folio's default theme: progressive enhancement over the public
// engagement endpoints. Without this script the page still shows the counts it was built with.
;(() => {
  const box = document.querySelector('[data-engage]')
  if (!box) return
  const id = box.getAttribute('data-post-id')
  const base = `/api/v1/blog/posts/${id}`
  const words = JSON.parse(box.getAttribute('data-words') || '{}')
  const $ = (sel) => box.querySelector(sel)
  const status = $('.status')
  const say = (text) => {
    if (status) status.textContent = text
  }
  const randomKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('')
  const clientKey = (() => {
    try {
      const known = localStorage.getItem('folio-client-key')
      if (known) return known
      const made = randomKey()
      localStorage.setItem('folio-client-key', made)
      return made
    } catch {
      return randomKey()
    }
  })()
  const call = async (path, init) => {
    const response = await fetch(base + path, { ...init, headers: { 'content-type': 'application/json', ...(init && init.headers) } })
    const body = await response.json()
    if (body.code !== '0000') throw new Error(body.message || 'failed')
    return body.data
  }
  const show = (data) => {
    $('[data-claps]').textContent = String(data.clapCount)
    $('[data-comments]').textContent = String(data.commentCount)
    // The same list the page was built with (templates/comments.tsx): thread order, replies indented by depth, dated.
    const list = $('.comments')
    const lang = document.documentElement.lang === 'en' ? 'en-GB' : document.documentElement.lang
    const depthOf = new Map()
    list.replaceChildren()
    for (const comment of data.comments || []) {
      const depth = comment.parentId === null ? 0 : (depthOf.has(comment.parentId) ? depthOf.get(comment.parentId) : -1) + 1
      depthOf.set(comment.id, depth)
      const item = document.createElement('li')
      item.className = `depth-${Math.min(depth, 4)}`
      item.id = `comment-${comment.id}`
      const who = document.createElement('p')
      who.className = 'who'
      const time = document.createElement('time')
      const at = new Date(`${comment.createTime.replace(' ', 'T')}Z`)
      time.dateTime = at.toISOString().replace('.000Z', 'Z')
      time.textContent = at.toLocaleDateString(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
      who.append(`${comment.authorName} · `, time)
      const text = document.createElement('p')
      text.textContent = comment.content
      item.append(who, text)
      list.append(item)
    }
  }
  const refresh = () => call('/engagement').then(show, () => {})
  for (const hidden of box.querySelectorAll('[data-needs-script]')) hidden.hidden = false
  $('[data-clap]').addEventListener('click', async () => {
    try {
      const data = await call('/reactions', {
        method: 'POST',
        headers: { 'idempotency-key': randomKey() },
        body: JSON.stringify({ reactionKey: 'clap', clientKey, count: 1 }),
      })
      if (data && typeof data.clapCount === 'number') $('[data-claps]').textContent = String(data.clapCount)
      else await refresh()
      say(words.thanks || '')
    } catch (error) {
      say(String(error.message || error))
    }
  })
  const form = $('form')
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const fields = new FormData(form)
    try {
      await call('/comments', {
        method: 'POST',
        body: JSON.stringify({
          authorName: String(fields.get('authorName') || ''),
          authorEmail: String(fields.get('authorEmail') || '') || null,
          content: String(fields.get('content') || ''),
        }),
      })
      form.reset()
      say(words.received || '')
      await refresh()
    } catch (error) {
      say(String(error.message || error))
    }
  })
  void refresh()
})()
