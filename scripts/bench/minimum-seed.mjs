// What the contract's least (reference-minimum.mjs) must hold before it answers a row: the
// records the service's seed made, for the rows that act on seeded records (the relation connect,
// the form update), as a scratch file for MINIMUM_SEED. The other rows make their own records.
import { scratchFile } from './processes.mjs';

const CONNECT = 'POST /forms/submission/{id}/relations/{fieldName}/connect';
const FORM_UPDATE = 'PATCH /forms/update/{id}';
/** The rows the minimum answers. */
export const MINIMUM_OPERATIONS = ['POST /forms/create', FORM_UPDATE, 'PATCH /articles/update/{id}', 'PATCH /categories/update/{id}', 'PATCH /authors/update/{id}', CONNECT, 'DELETE /articles/delete/{id}', 'POST /ai/translate'];

/** The MINIMUM_SEED file for operation `name`, whose first request is `request`, read from the service through `api`; undefined when the row needs none. */
export async function minimumSeed(name, api, request) {
  if (name === CONNECT) return seededRecords(api, request);
  if (name === FORM_UPDATE) return seededForm(api, request);
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

/** A scratch file of the form a form update's request names, as the service holds it. */
async function seededForm(api, { path }) {
  const { form } = await api.call('GET', `/forms/getById/${path.split('/').pop()}`);
  return scratchFile('minimum-seed', { tenantId: api.tenant.tenantId, forms: [form], submissions: [] });
}
