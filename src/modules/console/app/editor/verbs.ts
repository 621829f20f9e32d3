import { api, ApiError } from '../api.ts'
import { formOf, requestOf, type PostForm, type StoredPost } from './form.ts'

const POSTS = '/api/v1/blog/posts'
const ADMIN = '/api/admin/blog/posts'
const ifMatch = (version: number | null): Record<string, string> => (version ? { 'if-match': `"${version}"` } : {})

export const readPost = (id: number) => api<StoredPost>('GET', `${ADMIN}/${id}`)

/** A refusal because the post changed since the version the author started from. */
export const isConflict = (error: unknown) => error instanceof ApiError && (error.status === 412 || error.status === 409)

/** Saves the form as `status` (If-Match its version) and answers the post as stored. */
export const savePost = (form: PostForm, status: number) =>
  api<StoredPost>('POST', `${POSTS}/save`, { ...requestOf(form), status }, ifMatch(form.version))

export const takeOffline = (id: number) => api<boolean>('POST', `${ADMIN}/${id}/offline`)

export const deletePost = (id: number) => api<boolean>('POST', `${ADMIN}/${id}/delete`)

export const autofix = (id: number) => api<{ applied: string[]; post: StoredPost }>('POST', `${POSTS}/${id}/autofix`)

export const previewLink = (id: number) => api<{ pageUrl: string }>('POST', `${POSTS}/${id}/preview`, {})

/** `local` is the author's time zone's wall clock (datetime-local); the API takes UTC. */
export const schedule = (id: number, local: string) =>
  api<StoredPost>('POST', `${POSTS}/${id}/schedule`, { publishAt: new Date(local).toISOString().slice(0, 19).replace('T', ' ') })

/** A UTC `YYYY-MM-DD HH:mm:ss` shown in the author's time zone. */
export const localTime = (utc: string) => new Date(`${utc.replace(' ', 'T')}Z`).toLocaleString()

/** Links a saved translation back from its source post, so the pair names each other (hreflang). */
export async function linkBack(sourceId: number, slug: string) {
  const source = await readPost(sourceId)
  if (source.alternateSlug === slug) return
  await savePost({ ...formOf(source), alternateSlug: slug }, source.status)
}
