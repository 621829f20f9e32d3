/**
 * The baseline: a bare Bun.serve answering fixed bytes (the same JSON the API would send), so a
 * benchmark can print the API's cost as a ratio measured in the same run on the same machine.
 * Usage: bun bench/support/bare-server.ts FILE  → prints its URL on stdout.
 */
const bytes = await Bun.file(process.argv[2]!).bytes()
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    if (request.method === 'POST') await request.arrayBuffer()
    return new Response(bytes, { headers: { 'content-type': 'application/json; charset=utf-8' } })
  },
})
console.log(server.url.href)
export {}
