// The copies thread (copies.ts): writes an artifact's precompressed copies beside its main file.
import { answerInBackground } from '../../shared/thread-priority.ts'
import { writeRequested } from './copies.ts'

answerInBackground(writeRequested)
