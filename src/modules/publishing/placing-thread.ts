// The placing thread (placing.ts): writes and removes a pass's main files off the thread that answers reads.
import { answerEachRequest } from '../../shared/thread-priority.ts'
import { placeRequested } from './placing.ts'

// At the process's priority (its requests never ask otherwise): it mostly waits on the file system, and the render loop awaits each answer.
answerEachRequest(placeRequested)
