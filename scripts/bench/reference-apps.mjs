// The two references, as request handlers over a route table ({method, path, status, bytes}):
// bare node:http (the floor) and a Koa app (the framework's own cost). Run as servers by
// reference-bare.mjs / reference-koa.mjs, or in-process by inprocess-ab.mjs.
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { constantEnvelope } from './constant-envelope.mjs';

/** A node:http handler answering each route with a constant envelope of the service's size. */
export function bareHandler(table) {
  const answerOf = (route) => ({ status: route.status, body: constantEnvelope(route.status, route.bytes) });
  const answers = new Map(table.map((route) => [`${route.method} ${route.path}`, answerOf(route)]));
  // A route with `:name` parameters (a request that takes turns over records) matches by pattern.
  const patterns = table
    .filter((route) => route.path.includes('/:'))
    .map((route) => ({ key: new RegExp(`^${route.method} ${route.path.replace(/:\w+/g, '[^/]+')}$`), answer: answerOf(route) }));
  const notFound = constantEnvelope(404, 60);
  return (req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      const key = `${req.method} ${req.url.split('?')[0]}`;
      const answer = answers.get(key) ?? patterns.find((pattern) => pattern.key.test(key))?.answer;
      const body = answer?.body ?? notFound;
      res.writeHead(answer?.status ?? 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  };
}

/**
 * Koa, @koa/router, koa-bodyparser and four trivial async middlewares (the shape of a
 * request-id, error, log and auth chain), answering each route with a constant envelope object
 * of the service's size (Koa serialises it per request, as it does ours). `beforeAnswer(ctx)`, if
 * given, is awaited before each answer (translate-floor.mjs: one provider call per request).
 */
export function referenceKoaApp(table, { beforeAnswer } = {}) {
  const app = new Koa();
  const router = new Router();
  for (const route of table) {
    const envelope = JSON.parse(constantEnvelope(route.status, route.bytes));
    router.register(route.path, [route.method], async (ctx) => {
      if (beforeAnswer) await beforeAnswer(ctx);
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
    } catch {
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
  return app;
}
