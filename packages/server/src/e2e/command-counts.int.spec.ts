/**
 * Issue 18 item 1: the storage commands each HTTP operation sends, pinned. Runs over the Mongo
 * collection double in every run, and on a real MongoDB (driver command monitoring) when
 * MONGODB_URI is set; both count through `CommandCounter`, so one figure holds for both. An extra
 * round trip fails here; docs/operations.md ("Storage round trips") gives each figure's minimum.
 * Every query is also checked against the indexes (issue 18 item 2): the double refuses one no
 * declared index serves, and on a real server each command is explained (no COLLSCAN) with
 * `notablescan` on where the server allows it. `PRINT_COUNTS=1` prints what each operation sent.
 */
import { expect } from 'chai';
import { FakeChatCompletionsServer } from '@cms/adapter-ai/testing';
import { collectionScans, refuseTableScans, type MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import { ManageTenants } from '@cms/core';
import { REAL_MONGO_SKIP_NOTE, REAL_MONGO_URI, startCountedService, type CountedService, type CountedStore } from '../testing/counted-service.js';
import { TEST_KEYS, TEST_TENANTS } from '../testing/test-service.js';
import { CONTENT_SCENARIOS } from './command-counts.content-scenarios.js';
import { createFixtures, SCENARIOS, type Fixtures } from './command-counts.scenarios.js';

const QUOTA_KEY = 'counted-key-tenant-q-0001';

for (const store of ['mongo-double', 'real-mongo'] as const satisfies readonly CountedStore[]) {
  describe(`Storage commands per operation (${store})`, () => {
    let provider: FakeChatCompletionsServer;
    let counted: CountedService;
    let fixtures: Fixtures;
    let restoreTableScans: (() => Promise<void>) | null = null;
    before(async function () {
      if (store === 'real-mongo' && !REAL_MONGO_URI) {
        process.stderr.write(`\n  note: ${REAL_MONGO_SKIP_NOTE}\n`);
        this.skip();
      }
      this.timeout(30_000);
      provider = await FakeChatCompletionsServer.start();
      counted = await startCountedService(store, {
        CMS_API_KEYS: `${TEST_KEYS.a}:${TEST_TENANTS.a},${TEST_KEYS.b}:${TEST_TENANTS.b},${QUOTA_KEY}:tenant-q`,
        AI_BASE_URL: provider.baseUrl,
        AI_MODEL: 'test-model',
        // The webhook rows create webhooks on a loopback address; nothing is delivered while counting.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      });
      await counted.api.service.container.get(ManageTenants).setAiTokenLimit('tenant-q', 0);
      if (counted.real) {
        restoreTableScans = await refuseTableScans(counted.real.db);
        if (!restoreTableScans) process.stderr.write('\n  note: the server refused setParameter notablescan; explain() alone checks the plans\n');
      }
      fixtures = await createFixtures(counted.api);
    });
    after(async () => {
      await restoreTableScans?.();
      await counted?.stop();
      await provider?.close();
    });

    for (const scenario of [...SCENARIOS, ...CONTENT_SCENARIOS]) {
      it(`${scenario.route}, ${scenario.outcome} (${scenario.status}): ${scenario.commands.length} command(s)`, async () => {
        const prepared = (await scenario.prepare?.(fixtures)) ?? {};
        counted.counter.take();
        const res = await scenario.send(fixtures, prepared);
        // Anything the request set off after answering would land within a turn or two.
        await new Promise((resolve) => setTimeout(resolve, 5));
        const documents = counted.counter.documents();
        const sent = counted.counter.take();
        if (process.env.PRINT_COUNTS) process.stdout.write(`COUNT ${scenario.route} | ${scenario.outcome} | ${res.status} | ${JSON.stringify(sent)}\n`);
        expect(res.status, JSON.stringify(res.body)).to.equal(scenario.status);
        expect(sent).to.deep.equal([...scenario.commands].sort());
        if (counted.real) expect(await collectionScans(counted.real.db, documents), 'commands whose plan scans the collection').to.deep.equal([]);
        else expect((counted.db as MingoDatabaseDouble).unservedQueries(), 'queries no declared index serves (add one to INDEXES, mongo-collections.ts)').to.deep.equal([]);
      });
    }
  });
}
