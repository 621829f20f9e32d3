// The copies thread (copies.ts): writes an artifact's precompressed copies beside its main file.
import { runInBackground } from '../../shared/thread-priority.ts'
import { writeRequested, type CopiesRequest } from './copies.ts'

runInBackground()

declare const self: Worker
self.onmessage = ({ data }: MessageEvent<CopiesRequest>) => self.postMessage(writeRequested(data))
