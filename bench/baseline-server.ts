/**
 * The baseline of `npm run bench`: a bare Fastify handler returning a constant JSON, run as its
 * own process like the app, on the same machine in the same run. Its body has the shape and
 * size of an availability answer (16 slots), so the two differ by what the app does, not by bytes.
 */
import Fastify from 'fastify';

const body = Array.from({ length: 16 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  time: `${String(12 + Math.floor(i / 2) + (i >= 6 ? 3 : 0)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
  available: i % 3 !== 0,
}));

const app = Fastify({ logger: false });
app.get('/constant', async () => body);
await app.listen({ port: Number(process.env.PORT ?? 3108), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
