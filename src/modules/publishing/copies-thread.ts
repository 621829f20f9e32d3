// The copies thread (copies.ts): writes an artifact's precompressed copies beside its main file.
import { heapBound } from '../../shared/heap-bound.ts'
import { backgroundWhenAsked } from '../../shared/thread-priority.ts'
import { writeRequested, type CopiesRequest } from './copies.ts'

declare const self: Worker
// Below the thread that answers reads, in the server (thread-priority.ts).
const priority = backgroundWhenAsked()
// The compressors' Buffers are garbage outside the heap: collected past a bound (shared/heap-bound.ts).
const heap = heapBound()
self.onmessage = ({ data }: MessageEvent<CopiesRequest>) => {
  priority(data.background)
  self.postMessage(writeRequested(data))
  heap.settle()
}
