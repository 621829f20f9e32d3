/** Moves to another console page without a reload (main.tsx listens for popstate). */
export function navigate(path: string): void {
  history.pushState(null, '', path)
  dispatchEvent(new PopStateEvent('popstate'))
}
