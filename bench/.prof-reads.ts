import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { startFolio } from '../test/support/folio.ts'
import { firstLine } from './support/wrk.ts'
const PROF = process.env.PROF
const folio = await startFolio({ SITE_URL: 'https://blog.example.org', LOG_LEVEL: 'info' })
const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
const { categoryId, authorId } = await seedTaxonomy(folio, token)
const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
await folio.stop()
const env = { ...folio.env }
const flags = PROF ? ['--cpu-prof', '--cpu-prof-interval=200', `--cpu-prof-dir=/tmp/reads-prof`] : []
const server = Bun.spawn([process.execPath, ...flags, join(import.meta.dir, '../src/main.ts')], { cwd: join(import.meta.dir, '..'), env, stdout: 'ignore', stderr: 'inherit' })
const file = join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`)
const bare = Bun.spawn([process.execPath, ...flags, resolve(import.meta.dir, 'support/bare-server.ts'), file], { stdout: 'pipe' })
const bareUrl = await firstLine(bare.stdout)
await Bun.sleep(1500)
const url = `http://127.0.0.1:${env.PORT}/api/v1/blog/posts/${post.slug}`
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10 } // ms
function run(u: string, pid: number) {
  const c0 = cpu(pid)
  const out = Bun.spawnSync(['taskset', '-c', '1', 'wrk', '-t1', '-c16', `-d${process.env.SECS ?? 4}s`, u]).stdout.toString()
  const n = Number(/(\d+) requests in/.exec(out)![1]); const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1])
  return { rps, usPerReq: ((cpu(pid) - c0) * 1000) / n }
}
for (let i = 0; i < Number(process.env.ROUNDS ?? 3); i++) {
  const a = run(url, server.pid), b = run(bareUrl, bare.pid)
  console.log(`API ${a.rps.toFixed(0)} rps ${a.usPerReq.toFixed(1)} us/req | bare ${b.rps.toFixed(0)} rps ${b.usPerReq.toFixed(1)} us/req | ratio ${(a.rps / b.rps).toFixed(2)} cpu ratio ${(b.usPerReq / a.usPerReq).toFixed(2)}`)
}
server.kill('SIGTERM'); bare.kill('SIGTERM'); await server.exited; await bare.exited
await folio.dispose()
