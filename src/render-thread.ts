// A render thread (RENDER_WORKERS, modules/publishing/render-pool.ts): renders slices of artifacts
// with the kinds the server registers (kinds.ts), from its own read-only snapshot.
import { kindsOf } from './kinds.ts'
import { answerRenders } from './modules/publishing/render-pool.ts'

answerRenders(kindsOf)
