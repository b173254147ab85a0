/**
 * OpenTelemetry through @opentelemetry/api (issue 16 item 1, decision 0743): with no SDK the
 * service adds no layer and wraps no port; with the Node SDK registered before start (what a
 * user's `--import ./instrumentation.mjs` does) a request gets a server span that continues the
 * caller's W3C trace, storage and outbound calls get spans under it, and the provider is called
 * with the client span as its parent.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { expect } from 'chai';
import { types } from 'node:util';
import { chatCompletion, FakeChatCompletionsServer } from '@cms/adapter-ai/testing';
import { FormRepositoryToken, TranslationProviderToken } from '@cms/core';
import { registeredTracer } from '../telemetry/open-telemetry.js';
import { CapturingLogger, startTestService, type TestService } from '../testing/test-service.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;

describe('OpenTelemetry', () => {
  describe('with no SDK registered', () => {
    it('finds no tracer, and hands out the adapters themselves (no wrapper, no layer to pay)', async () => {
      expect(registeredTracer()).to.equal(undefined);
      const api = await startTestService();
      try {
        expect(types.isProxy(api.service.container.get(FormRepositoryToken))).to.equal(false);
        expect(types.isProxy(api.service.container.get(TranslationProviderToken))).to.equal(false);
      } finally {
        await api.stop();
      }
    });
  });

  describe('with the Node SDK registered before the service starts', () => {
    const exporter = new InMemorySpanExporter();
    const requests = new CapturingLogger();
    let sdk: NodeTracerProvider;
    let provider: FakeChatCompletionsServer;
    let api: TestService;

    before(async () => {
      sdk = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      sdk.register();
      provider = await FakeChatCompletionsServer.start();
      provider.script = () => ({ json: chatCompletion('Bonjour', 4) });
      api = await startTestService({ AI_BASE_URL: provider.baseUrl, AI_MODEL: 'm' }, { requestLogger: requests });
    });
    after(async () => {
      await api?.stop();
      await provider?.close();
      await sdk?.shutdown();
      // Leave the process as the other suites expect it: no SDK.
      trace.disable();
      context.disable();
      propagation.disable();
    });
    beforeEach(() => exporter.reset());

    const spans = () => exporter.getFinishedSpans();
    const named = (name: string): ReadableSpan => {
      const span = spans().find((s) => s.name === name);
      expect(span, `${name} among ${spans().map((s) => s.name).join(', ')}`).not.to.equal(undefined);
      return span!;
    };

    it('makes a server span in the caller’s trace, with storage and client spans under it and the client span as the provider’s parent', async () => {
      const answer = await api.call('POST', '/ai/translate', { headers: { traceparent: TRACEPARENT }, body: { text: 'Hello', targetLanguage: 'fr' } });
      expect(answer.status).to.equal(200);

      const server = named('POST /cms/ai/translate');
      expect(server.kind).to.equal(SpanKind.SERVER);
      expect(server.spanContext().traceId).to.equal(TRACE_ID);
      expect(server.parentSpanContext?.spanId).to.equal(CALLER_SPAN);
      expect(server.attributes).to.include({ 'http.route': '/cms/ai/translate', 'http.response.status_code': 200 });

      const client = named('TranslationProvider.translate');
      expect(client.kind).to.equal(SpanKind.CLIENT);
      expect(client.parentSpanContext?.spanId).to.equal(server.spanContext().spanId);
      expect(String(provider.requests.at(-1)!.headers.traceparent)).to.equal(`00-${TRACE_ID}-${client.spanContext().spanId}-01`);

      const storage = spans().filter((s) => s.attributes['db.system'] === 'memory');
      expect(storage.map((s) => s.name)).to.include.members(['TenantRepository.findById', 'AiUsageLedger.add']);
      for (const span of storage) expect(span.spanContext().traceId, span.name).to.equal(TRACE_ID);

      const line = requests.lines.filter((l) => l.message === 'request').at(-1)!;
      expect(line).to.include({ traceId: TRACE_ID, requestId: answer.headers.get('x-request-id') });
    });

    it('marks a failed outbound call and a failed request as errors', async () => {
      provider.script = () => ({ status: 500, json: { error: { message: 'down' } } });
      const answer = await api.call('POST', '/ai/translate', { body: { text: 'Hello', targetLanguage: 'fr' } });
      expect(answer.status).to.be.at.least(500);
      expect(named('TranslationProvider.translate').status.code).to.equal(SpanStatusCode.ERROR);
      const server = named('POST /cms/ai/translate');
      expect(server.attributes['http.response.status_code']).to.equal(answer.status);
      expect(server.status.code).to.equal(SpanStatusCode.ERROR);
    });
  });
});
