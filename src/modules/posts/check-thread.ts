// The entry of an SEO pool thread (seo/pool.ts): the same passes the request thread would run.
import { serveTasks } from '../seo/pool.ts'
import { CHECK_TASKS } from './check-tasks.ts'

serveTasks(CHECK_TASKS)
