/**
 * The load generator's ceiling: Node's own HTTP server sending the baseline's body as constant
 * bytes, with no framework. Whatever rate the generator reaches here is more than any Fastify
 * handler can ask of it, so when it is clearly above the bare Fastify baseline, the baseline
 * (and the app under it) are measured by the server's speed, not the generator's.
 */
import { createServer } from 'node:http';
import { CONSTANT_BODY } from './constant-body.ts';

const body = Buffer.from(JSON.stringify(CONSTANT_BODY));
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(Number(process.env.PORT ?? 3105), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
