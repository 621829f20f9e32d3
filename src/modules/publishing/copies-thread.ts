// The copies thread (copies.ts): writes an artifact's precompressed copies beside its main file.
import { heapBound } from '../../shared/heap-bound.ts'
import { runInBackground } from '../../shared/thread-priority.ts'
import { writeRequested, type CopiesRequest } from './copies.ts'

runInBackground()

declare const self: Worker
// The compressors' Buffers are garbage outside the heap: collected past a bound (shared/heap-bound.ts).
const heap = heapBound()
self.onmessage = ({ data }: MessageEvent<CopiesRequest>) => {
  self.postMessage(writeRequested(data))
  heap.settle()
}
