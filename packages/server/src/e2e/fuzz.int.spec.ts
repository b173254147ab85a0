/**
 * Property-based fuzzing of every route the service declares (issue 7 §5), on the embedded store
 * and on the MongoDB repositories over the collection double. The route list is
 * read from the service's own /openapi.json before the tests are defined, so routes merged
 * later are fuzzed with no edit here. For each route: schema-guided near-valid requests and raw
 * junk, each answered with the CONTRACT §0 envelope, never a 5xx; a refused request (4xx) leaves
 * the store's fingerprint unchanged and Object.prototype unpolluted.
 * FUZZ_RUNS (default 150 per family and route) and FUZZ_SEED (replay a failure) tune it;
 * FUZZ_STATS=1 prints how the answers were spread over statuses (is the fuzzer getting deep?).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { idsIn, envelopeProblems, isExportAnswer } from '../testing/envelope-check.js';
import { describeRequest, junkRequests, nearValidRequests, sendRaw, type FuzzContext, type FuzzRequest } from '../testing/fuzz-requests.js';
import { declaredRoutes, type DeclaredRoute } from '../testing/openapi-routes.js';
import { databaseFingerprint, storeFingerprint, type StoreFingerprint } from '../testing/store-fingerprint.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { chatCompletion, FakeChatCompletionsServer } from '@cms/adapter-ai/testing';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const BASE = '/cms';

const routes = await readDeclaredRoutes();

async function readDeclaredRoutes(): Promise<DeclaredRoute[]> {
  const api = await startTestService();
  try {
    const res = await api.call('GET', '/openapi.json', { key: null });
    return declaredRoutes(res.body);
  } finally {
    await api.stop();
  }
}

/** What the fingerprint reads on each storage: the ports' objects, or the double's collections. */
const STORE_PARTS = {
  memory: ['TenantRepositoryToken', 'ApiKeyRepositoryToken', 'DashboardConfigRepositoryToken', 'RepurposeTemplateRepositoryToken'],
  'mongo-double': ['tenants', 'api_keys'],
} as const;

for (const storage of TEST_STORAGES) describe(`Fuzzing every declared route (storage: ${storage})`, () => {
  let api: TestService;
  let store: StoreFingerprint;
  let context: FuzzContext;
  let provider: FakeChatCompletionsServer;
  const knownIds = new Set<string>();

  before(async () => {
    // A translation the fuzzer gets right (the document names the languages) reaches a provider.
    provider = await FakeChatCompletionsServer.start();
    provider.script = () => ({ json: chatCompletion('traduit', 3) });
    api = await startTestService({ AI_BASE_URL: provider.baseUrl, AI_MODEL: 'fuzz-model' }, { storage });
    store = api.mongoDouble ? databaseFingerprint(api.mongoDouble) : await storeFingerprint(api.service.container);
    const bearer = async (claims: Record<string, unknown>, options: { expiresIn?: string; secret?: string } = {}) =>
      `Bearer ${await api.token(claims, options)}`;
    const bearers = await Promise.all([
      ...['admin', 'editor', 'author', 'member'].map((role) => bearer({ sub: `fuzz-${role}`, role })),
      bearer({ sub: 'fuzz-late' }, { expiresIn: '-1m' }),
      bearer({ sub: 'fuzz-foreign', tenant: 'tenant-b' }),
      bearer({ sub: 'fuzz-forged', role: 'admin' }, { secret: 'not-the-service-secret-0123456789abcdef' }),
    ]);
    context = { keys: TEST_KEYS, bearers, knownIds };
  });
  after(async () => {
    store?.dispose();
    await api?.stop();
    await provider?.close();
  });

  /** Sends each generated request; every answer is checked, every refusal must change nothing. */
  async function fuzz(requests: fc.Arbitrary<FuzzRequest>, title: string): Promise<void> {
    let before = await store.take();
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requests, async (request) => {
        const response = await sendRaw(api.service.url, request);
        const problems = envelopeProblems(response);
        const key = `${response.status} ${response.text.match(/"message":"([^"]{0,40})/)?.[1] ?? ''}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        const after = await store.take();
        if (response.status >= 400 && after !== before) problems.push(`refused with ${response.status}, yet stored data changed: ${difference(before, after)}`);
        before = after;
        if (Object.keys(Object.prototype).length > 0 || ({} as Record<string, unknown>).polluted !== undefined) {
          problems.push('Object.prototype was polluted');
        }
        if (response.status < 300 && !isExportAnswer(response)) idsIn(JSON.parse(response.text).data, knownIds);
        if (problems.length > 0) {
          throw new Error(`${problems.join('; ')}\n${describeRequest(request)}\nanswer ${response.status}: ${response.text.slice(0, 300)}`);
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    if (process.env.FUZZ_STATS) {
      const spread = [...statuses].sort((a, b) => b[1] - a[1]).map(([k, n]) => `      ${String(n).padStart(5)}  ${k}`);
      process.stdout.write(`\n    ${title}:\n${spread.join('\n')}\n`);
    }
  }

  it('finds the routes in the OpenAPI document and the store behind the ports', () => {
    expect(routes.map((route) => `${route.method} ${route.path}`)).to.include.members([
      'GET /ai/repurpose/template',
      'PUT /ai/repurpose/template',
      'GET /reports/dashboardConfig',
      'PUT /reports/dashboardConfig',
    ]);
    expect(store.ports).to.include.members([...STORE_PARTS[storage]]);
  });

  describe('the store fingerprint', () => {
    describe('when a request stores something', () => {
      it('changes, so a refused request that wrote would be caught', async () => {
        const before = await store.take();
        const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'fingerprint-probe' }, body: { templateId: 'probe' } });
        expect(res.status).to.equal(200);
        expect(await store.take()).to.not.equal(before);
      });
    });

    describe('when nothing is stored in between', () => {
      it('is the same text twice', async () => {
        expect(await store.take()).to.equal(await store.take());
      });

      it('is the same after a read that fills a read cache (the recent forms), which is not stored data', async () => {
        const created = await api.call('POST', '/forms/create', { body: { title: { en: 'Cached' }, slug: 'fingerprint-cache-probe', sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }] }] } });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        const before = await store.take();
        const read = await api.call('GET', `/forms/getById/${created.body.data.form.id}`);
        expect(read.status).to.equal(200);
        expect(await store.take()).to.equal(before);
      });
    });
  });

  for (const route of routes) {
    describe(`${route.method} ${route.path}`, () => {
      describe('when it gets near-valid requests (schema-guided, broken in a place or two)', () => {
        it('answers each with the envelope and never a 5xx; a refusal changes no stored data', async function () {
          this.timeout(Math.max(60_000, RUNS * 400));
          await fuzz(nearValidRequests(route, BASE, context), `${route.method} ${route.path} near-valid`);
        });
      });

      describe('when it gets junk (malformed JSON, wrong content types, odd paths and methods)', () => {
        it('answers each with the envelope and never a 5xx; a refusal changes no stored data', async function () {
          this.timeout(Math.max(60_000, RUNS * 400));
          await fuzz(junkRequests(route, BASE, context), `${route.method} ${route.path} junk`);
        });
      });
    });
  }

  describe('when the path under the base path is not a route', () => {
    it('answers each with the envelope and never a 5xx, and changes nothing', async function () {
      this.timeout(Math.max(60_000, RUNS * 400));
      const unknown: DeclaredRoute = {
        operationId: 'unknown',
        method: 'GET',
        path: '/{a}/{b}',
        pathParams: [
          { name: 'a', schema: { type: 'string', minLength: 1 }, required: true },
          { name: 'b', schema: { type: 'string' }, required: true },
        ],
        queryParams: [],
        body: undefined,
        readsBearer: false,
        successStatus: 200,
      };
      await fuzz(junkRequests(unknown, BASE, context), 'unknown paths');
    });
  });
});

/** Where two fingerprints first differ, with a little context. */
function difference(before: string, after: string): string {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  return `…${after.slice(Math.max(0, i - 80), i + 120)}…`;
}
