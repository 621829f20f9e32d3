// The placing thread (placing.ts): writes and removes a pass's main files off the thread that answers reads.
import { answerInBackground } from '../../shared/thread-priority.ts'
import { placeRequested } from './placing.ts'

answerInBackground(placeRequested)
