// The copies thread (copies.ts): writes an artifact's precompressed copies beside its main file.
import { answerEachRequest } from '../../shared/thread-priority.ts'
import { writeRequested } from './copies.ts'

answerEachRequest(writeRequested, { background: true })
