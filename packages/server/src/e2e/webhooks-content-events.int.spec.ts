/**
 * §7 events of the §6 routes, end to end: updates, deletes and relation disconnects send their
 * event once to a real receiver on loopback (every signature checked with `standardwebhooks`),
 * with the data the table of §7 names; a change that changed nothing, was refused or lost its
 * precondition sends none; the records a delete takes with it send no events of their own
 * (decision 0783).
 */
import { expect } from 'chai';
import { engagementClient, type Headers } from '../testing/engagement-client.js';
import type { StandardWebhookReceiver } from '../testing/standard-webhook.receiver.js';
import { TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { firstOfEach, relatedRecords, webhookSuite } from './webhook-suite.js';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const storage of TEST_STORAGES) {
  describe(`Webhook events of updates and deletes (storage: ${storage})`, () => {
    const suite = webhookSuite(storage);
    let api: TestService;
    let admin: Headers;
    let editor: Headers;
    let receiver: StandardWebhookReceiver;
    beforeEach(async () => {
      ({ api, admin, receiver } = suite);
      editor = await engagementClient(api).bearer('editor');
    });
    const subscribe = (events: string[]) => suite.subscribe(events);

    it('sends form.updated, article.updated, submission.relation.disconnected and the four deleted events once each, with the data of §7', async () => {
      const { company, person, acme, ada, article, comment } = await relatedRecords(api, 'ev');
      const webhookId = await subscribe(['*']);

      const formUpdate = await api.call('PATCH', `/forms/update/${person.id}`, { body: { title: { en: 'People' } } });
      expect(formUpdate.status).to.equal(200);
      expect((await api.call('PATCH', `/forms/update/${person.id}`, { body: {} })).status).to.equal(200); // no-op: no event
      const stale = await api.call('PATCH', `/forms/update/${person.id}`, { headers: { 'if-match': '"stale"' }, body: { title: { en: 'X' } } });
      expect(stale.status).to.equal(412); // refused: no event
      expect((await api.call('PATCH', `/forms/update/${person.id}`, { body: { slug: `ev-company` } })).status).to.equal(409); // refused: no event
      const articleUpdate = await api.call('PATCH', `/articles/update/${article.id}`, { headers: editor, body: { title: 'After' } });
      expect(articleUpdate.status).to.equal(200);
      const disconnect = (path: string) => api.call('POST', path, { body: { relatedSubmissionId: acme.id } });
      const disconnected = await disconnect(`/forms/submission/${ada.id}/relations/employer/disconnect`);
      expect(disconnected.status).to.equal(200);
      expect((await disconnect(`/forms/submission/${ada.id}/relations/employer/disconnect`)).status).to.equal(200); // not connected: no event
      expect((await api.call('DELETE', `/articles/comments/${comment.id}`, { headers: editor })).status).to.equal(200);
      expect((await api.call('DELETE', `/forms/submission/${acme.id}`, { headers: editor })).status).to.equal(200);
      expect((await api.call('DELETE', `/articles/delete/${article.id}`, { headers: editor })).status).to.equal(200);
      expect((await api.call('DELETE', `/forms/delete/${person.id}`, { headers: editor })).status).to.equal(200); // takes Ada along, silently
      expect((await api.call('DELETE', `/forms/delete/${person.id}`, { headers: editor })).status).to.equal(404); // no event
      expect((await api.call('DELETE', `/forms/delete/${company.id}`, { headers: { ...editor, 'if-match': '"stale"' } })).status).to.equal(412);

      const expected = ['form.updated', 'article.updated', 'submission.relation.disconnected', 'comment.deleted', 'submission.deleted', 'article.deleted', 'form.deleted'];
      await receiver.waitFor(expected.length);
      await settle(200);
      const received = firstOfEach(receiver.received);
      expect(received.map((request) => request.body.type).sort()).to.deep.equal([...expected].sort());
      for (const request of receiver.received) expect(request.verified, request.rawBody).to.equal(true);
      const data = (type: string) => received.find((request) => request.body.type === type)!.body.data;
      expect(data('form.updated')).to.deep.equal(formUpdate.body.data.form);
      expect(data('article.updated')).to.deep.equal(articleUpdate.body.data.article);
      expect(data('submission.relation.disconnected')).to.deep.equal(disconnected.body.data.submission);
      expect(data('submission.relation.disconnected').relations).to.deep.equal({});
      expect(data('comment.deleted')).to.deep.equal({ id: comment.id, articleId: article.id });
      expect(data('submission.deleted')).to.deep.equal({ id: acme.id, formId: company.id });
      expect(data('article.deleted')).to.deep.equal({ id: article.id });
      expect(data('form.deleted')).to.deep.equal({ id: person.id });

      const log = (await api.call('GET', `/webhooks/${webhookId}/deliveries`, { headers: admin })).body.data.deliveries;
      expect(log.map((entry: any) => entry.type).sort()).to.deep.equal([...expected].sort());
      expect(log.every((entry: any) => entry.status === 'delivered')).to.equal(true);
    });

    it('sends a type only to the webhooks subscribed to it', async () => {
      const { article } = await relatedRecords(api, 'only');
      await subscribe(['article.deleted']);
      expect((await api.call('PATCH', `/articles/update/${article.id}`, { headers: editor, body: { title: 'Quiet' } })).status).to.equal(200);
      expect((await api.call('DELETE', `/articles/delete/${article.id}`, { headers: editor })).status).to.equal(200);
      const [request] = await receiver.waitFor(1);
      await settle(200);
      expect(firstOfEach(receiver.received)).to.have.length(1);
      expect(request!.body).to.deep.include({ type: 'article.deleted', data: { id: article.id } });
    });
  });
}
