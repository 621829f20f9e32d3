/**
 * The only hosts an embedded player (iframe) may come from: the sanitizer's allow-list
 * (sanitize.ts) and the pages' CSP `frame-src` (http/headers.ts). A module of its own, so the
 * headers (which every render thread loads) do not load the sanitizer.
 */
export const IFRAME_HOSTS = ['www.youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com']
