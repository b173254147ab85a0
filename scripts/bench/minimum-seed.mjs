// What the contract's least (reference-minimum.mjs) must hold before it answers a row: the
// records the service's seed made, for the rows that act on seeded records (the relation connect,
// the form update, the submit + erase pairs' form), as a scratch file for MINIMUM_SEED. The other
// rows make their own records.
// And the minimum started in a process of its own, as contract-minimum.mjs and profile.mjs load it.
import { join } from 'node:path';
import { BENCH_JWT_SECRET } from './bench-client.mjs';
import { PINNING, scratchFile, startPinned } from './processes.mjs';

const CONNECT = 'POST /forms/submission/{id}/relations/{fieldName}/connect';
const FORM_UPDATE = 'PATCH /forms/update/{id}';
const ERASURE = 'DELETE /forms/submission/{id}';
/** The rows the minimum answers. */
export const MINIMUM_OPERATIONS = ['POST /forms/create', FORM_UPDATE, 'PATCH /articles/update/{id}', 'PATCH /categories/update/{id}', 'PATCH /authors/update/{id}', CONNECT, 'DELETE /articles/delete/{id}', 'POST /ai/translate', 'PUT /ai/repurpose/template', 'DELETE /authors/delete/{id}', ERASURE];

/** The MINIMUM_SEED file for operation `name`, whose first request is `request`, read from the service through `api`; undefined when the row needs none. */
export async function minimumSeed(name, api, request) {
  if (name === CONNECT) return seededRecords(api, request);
  if (name === FORM_UPDATE) return seededForm(api, request.path.split('/').pop());
  if (name === ERASURE) return seededForm(api, /\/forms\/([^/]+)\/submit$/.exec(request.path)[1]); // the pair's submit
  return undefined;
}

/** A scratch file of the submissions a connect's turns name and their forms, as the service holds them. */
async function seededRecords(api, { cycle }) {
  const ids = [...new Set(cycle.flatMap(({ source, related }) => [source, related]))];
  const submissions = await Promise.all(ids.map(async (id) => (await api.call('GET', `/forms/submission/${id}`)).submission));
  const formIds = [...new Set(submissions.map(({ formId }) => formId))];
  const forms = await Promise.all(formIds.map(async (id) => (await api.call('GET', `/forms/getById/${id}`)).form));
  return scratchFile('minimum-seed', { tenantId: api.tenant.tenantId, forms, submissions });
}

/** A scratch file of the form `id`, as the service holds it. */
async function seededForm(api, id) {
  const { form } = await api.call('GET', `/forms/getById/${id}`);
  return scratchFile('minimum-seed', { tenantId: api.tenant.tenantId, forms: [form], submissions: [] });
}

/** The settings the minimum reads: the bench tenants' keys, the JWT secret, its log, the provider, the seed file. */
export function minimumSettings({ tenants, providerUrl, log, seed }) {
  return { MINIMUM_KEYS: JSON.stringify(tenants), MINIMUM_JWT_SECRET: BENCH_JWT_SECRET, MINIMUM_LOG: log, AI_BASE_URL: providerUrl, MINIMUM_SEED: seed ?? '' };
}

/** The minimum in its own process on the server core (`skip`: MINIMUM_SKIP), with `{ origin }` added. */
export async function startMinimum({ name = 'minimum', skip = '', nodeArgs = [], ...settings }) {
  const started = await startPinned({
    name,
    cpu: PINNING.serverCpu,
    nodeArgs,
    script: join(import.meta.dirname, 'reference-minimum.mjs'),
    env: { NODE_ENV: 'production', MINIMUM_SKIP: skip, ...minimumSettings(settings) },
    ready: /listening (\d+)/,
  });
  return { ...started, origin: `http://127.0.0.1:${started.match[1]}` };
}
