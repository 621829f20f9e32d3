// The copies thread (copies.ts): writes an artifact's precompressed copies beside its main file,
// as `writeCopies` does on any thread; a failure (a full disk) is answered, never thrown.
import type { CopiesReply, CopiesRequest } from './copies.ts'
import { writeCopies } from './writer.ts'

declare const self: Worker
self.onmessage = ({ data: { id, root, path, bytes } }: MessageEvent<CopiesRequest>) => {
  let reply: CopiesReply
  try {
    reply = { id, written: writeCopies(root, path, bytes) }
  } catch (error) {
    reply = { id, written: false, error: String(error) }
  }
  self.postMessage(reply)
}
