// The harness's own API client, for seeding data and sampling answers before a measurement:
// node:http with a keep-alive agent against 127.0.0.1 (several times faster than fetch, which
// matters when a scale scenario seeds a million records), a tenant's key, JSON in and out, and
// HS256 bearer tokens signed with node:crypto (the service is started with BENCH_JWT_SECRET).
import { createHmac } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { fillTemplates } from './request-templates.mjs';

const agent = new Agent({ keepAlive: true, maxSockets: 128 });

export const BENCH_JWT_SECRET = 'bench-jwt-secret-0123456789abcdef0123456789';
const TENANT_COUNT_DEFAULT = 4;

/** `tenants` bench tenants with their keys, in the form CMS_API_KEYS takes. */
export function benchTenants(count = TENANT_COUNT_DEFAULT) {
  return Array.from({ length: count }, (_, i) => ({ tenantId: `bench-${i + 1}`, key: `bench-key-${String(i + 1).padStart(4, '0')}-abcdefgh` }));
}

export const apiKeysSetting = (tenants) => tenants.map(({ key, tenantId }) => `${key}:${tenantId}`).join(',');

export function signToken(claims, secret = BENCH_JWT_SECRET) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iat: Math.floor(Date.now() / 1000), ...claims })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

export class BenchClient {
  /** @param {{origin: string, basePath: string, tenant: {tenantId: string, key: string}}} options */
  constructor({ origin, basePath, tenant }) {
    this.origin = origin;
    this.basePath = basePath;
    this.tenant = tenant;
  }

  /** A bearer header for this tenant with the given role. */
  bearer(role = 'admin', sub = `bench-${role}`) {
    return { authorization: `Bearer ${signToken({ sub, role, tenant: this.tenant.tenantId })}` };
  }

  /** The headers every request of this tenant carries. */
  headers(extra = {}) {
    return { 'x-api-key': this.tenant.key, ...extra };
  }

  /**
   * A request as the load generator takes it: path under the base, JSON body as text;
   * `capture`/`fallback`/`cycle` as load-generator.mjs describes.
   */
  request(method, path, { headers = {}, body, expect = [200], capture, fallback, cycle } = {}) {
    const all = this.headers(headers);
    if (body !== undefined) all['content-type'] = 'application/json';
    return {
      method,
      path: `${this.basePath}${path}`,
      headers: all,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      expect,
      ...(capture ? { capture } : {}),
      ...(fallback ? { fallback: Object.fromEntries(Object.entries(fallback).map(([k, v]) => [k, String(v)])) } : {}),
      ...(cycle ? { cycle } : {}),
    };
  }

  /**
   * Sends one request (as built by `request`, or method + path + options); answers status and
   * parsed body. Templates are filled as the load generator fills them (load-generator.mjs):
   * `{{seq}}` with a fresh value, `{{round}}` with one value per sequence, `{{name}}` from an entry
   * of the request's `cycle` (one at random), else `context` (what earlier requests of a sequence
   * captured), else the request's `fallback`.
   */
  async send(spec, context = {}) {
    const unique = `sample-${Math.random().toString(36).slice(2, 10)}`;
    const turn = spec.cycle?.[Math.floor(Math.random() * spec.cycle.length)];
    const fill = (text) => (text === undefined ? text : fillTemplates(text, { unique, context, turn, fallback: spec.fallback }));
    const headers = Object.fromEntries(Object.entries(spec.headers).map(([name, value]) => [name, fill(value)]));
    const filled = { ...spec, path: fill(spec.path), headers };
    const body = fill(spec.body);
    // A pooled keep-alive connection the server has just closed fails before any answer: retry once.
    const answer = await this.#exchange(filled, body).catch((error) => (error.code === 'ECONNRESET' ? this.#exchange(filled, body) : Promise.reject(error)));
    let json;
    try {
      json = JSON.parse(answer.text);
    } catch {
      json = undefined;
    }
    if (spec.capture && answer.status < 300) {
      const value = spec.capture.path.reduce((at, key) => at?.[key], json);
      if (value !== undefined) context[spec.capture.name] = value;
    }
    return { ...answer, json };
  }

  #exchange(spec, body) {
    const url = new URL(this.origin);
    const headers = body === undefined ? spec.headers : { ...spec.headers, 'content-length': Buffer.byteLength(body) };
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, method: spec.method, path: spec.path, headers, agent }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const buffer = Buffer.concat(chunks);
          resolve({ status: res.statusCode, bytes: buffer.length, text: buffer.toString('utf8') });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Sends a sequence as one load-generator connection sends one round of it: captures carry over. */
  async sendSequence(specs) {
    const context = {};
    const answers = [];
    for (const spec of specs) answers.push(await this.send(spec, context));
    return answers;
  }

  /** Sends and insists on `expect`; returns `data`. Seeding uses this. */
  async call(method, path, options = {}) {
    const spec = this.request(method, path, options);
    const answer = await this.send(spec);
    if (!spec.expect.includes(answer.status)) {
      throw new Error(`${method} ${path} answered ${answer.status} (expected ${spec.expect.join('/')}): ${answer.text.slice(0, 300)}`);
    }
    return answer.json?.data;
  }
}

/** Runs `task(i)` for i in [0, count) with at most `parallel` in flight (bulk seeding). */
export async function inParallel(count, parallel, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}
