// Reference 2, the framework: what any Koa service pays before its own code runs. Koa,
// @koa/router, koa-bodyparser and four trivial async middlewares (the shape of a request-id,
// error, log and auth chain), answering each operation with a constant envelope object of the
// service's size (Koa serialises it per request, as it does ours). Prints `listening <port>`.
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { constantEnvelope, readRouteTable } from './constant-envelope.mjs';

const table = await readRouteTable(process.argv[2]);
const app = new Koa();
const router = new Router();
for (const route of table) {
  const envelope = JSON.parse(constantEnvelope(route.status, route.bytes));
  router.register(route.path, [route.method], async (ctx) => {
    ctx.status = route.status;
    ctx.body = envelope;
  });
}

app.use(async (ctx, next) => {
  ctx.state.started = performance.now();
  await next();
});
app.use(async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    ctx.status = 500;
    ctx.body = { success: false, statusCode: 500, message: 'Server Error', data: null };
  }
});
app.use(async (ctx, next) => {
  ctx.state.requestId = ctx.get('x-request-id') || 'none';
  await next();
});
app.use(async (ctx, next) => {
  ctx.state.key = ctx.get('x-api-key');
  await next();
});
app.use(bodyParser());
app.use(router.routes());

const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => process.exit(0));
