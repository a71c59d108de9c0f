// The bare baseline for Deno: Deno.serve answering a fixed JSON body, nothing else.
const body = Deno.readTextFileSync(Deno.env.get('BENCH_BODY_FILE'));
Deno.serve(
  { port: Number(Deno.env.get('PORT')), hostname: '127.0.0.1', onListen: () => console.log('listening on', Deno.env.get('PORT')) },
  () => new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
);
