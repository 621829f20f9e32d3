import { api } from '../api.ts'
import { t } from '../i18n.ts'

const escapeAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * Uploads an image through the media endpoint (the URL it answers is used as-is) and asks for
 * its alt text; answers the snippet to insert in the body's format, or null when cancelled.
 */
export async function uploadImage(file: File, format: 'markdown' | 'html'): Promise<string | null> {
  const alt = prompt(t('altPrompt'))
  if (alt === null) return null
  const data = new FormData()
  data.append('file', file)
  const url = await api<string>('POST', '/api/v1/blog/media/upload', data)
  return format === 'markdown' ? `![${alt.replace(/[[\]]/g, '')}](${url})` : `<img src="${escapeAttr(url)}" alt="${escapeAttr(alt)}">`
}
