// The placing thread (placing.ts): writes and removes a pass's main files off the thread that answers reads.
import { runInBackground } from '../../shared/thread-priority.ts'
import { placeRequested, type PlaceRequest } from './placing.ts'

runInBackground()

declare const self: Worker
self.onmessage = ({ data }: MessageEvent<PlaceRequest>) => self.postMessage(placeRequested(data))
