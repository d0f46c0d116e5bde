/**
 * The floor the station is measured against (http-floor.ts): a bare Fastify hello-world, no plugins, no
 * logging, run as the station runs (its own process, node with tsx), printing its URL on stdout.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`${url}/`);
