// The copies thread (copies.ts): writes an artifact's precompressed copies beside its main file.
import { answerEachRequest } from '../../shared/thread-priority.ts'
import { writeRequested } from './copies.ts'

// Below the thread that answers reads in the server; a CLI command's at the process's priority.
answerEachRequest(writeRequested)
