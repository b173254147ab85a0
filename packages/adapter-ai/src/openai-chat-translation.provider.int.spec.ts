import { expect } from 'chai';
import { ErrorCodes, type Logger } from '@cms/core';
import { chatCompletionsUrl, OpenAiChatTranslationProvider, type OpenAiChatSettings } from './openai-chat-translation.provider.js';
import { chatCompletion, FakeChatCompletionsServer, type FakeChatReply } from './testing/fake-chat-completions.server.js';

describe('OpenAiChatTranslationProvider', () => {
  let server: FakeChatCompletionsServer;
  let warnings: Array<Record<string, unknown>>;
  beforeEach(async () => {
    server = await FakeChatCompletionsServer.start();
    warnings = [];
  });
  afterEach(() => server.close());

  const logger: Logger = { info() {}, error() {}, warn: (message, fields) => warnings.push({ message, ...fields }) };
  const provider = (settings: Partial<OpenAiChatSettings> = {}) =>
    new OpenAiChatTranslationProvider({ baseUrl: server.baseUrl, apiKey: 'sk-test-123', model: 'gpt-test', timeoutMs: 2000, logger, ...settings });
  const answer = (reply: FakeChatReply) => {
    server.script = () => reply;
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => ({ code: 'resolved', message: '' }),
      (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
    );

  describe('when the provider answers a completion', () => {
    it('posts model and messages with the bearer key and returns the trimmed content and total tokens', async () => {
      answer({ json: chatCompletion('  Bonjour le monde \n', 37) });
      const result = await provider().translate({ text: 'Hello world', targetLanguage: 'fr', sourceLanguage: 'en' });
      expect(result).to.deep.equal({ content: 'Bonjour le monde', totalTokens: 37 });

      expect(server.requests).to.have.length(1);
      const [received] = server.requests;
      expect(received!.method).to.equal('POST');
      expect(received!.path).to.equal('/v1/chat/completions');
      expect(received!.headers.authorization).to.equal('Bearer sk-test-123');
      expect(received!.headers['content-type']).to.equal('application/json');
      expect(Object.keys(received!.body)).to.deep.equal(['model', 'messages']);
      expect(received!.body.model).to.equal('gpt-test');
      const [system, user] = received!.body.messages;
      expect(received!.body.messages).to.have.length(2);
      expect(system.role).to.equal('system');
      expect(system.content).to.contain('from English (en) into French (fr)');
      expect(system.content).to.contain('Reply with the translation only');
      expect(user).to.deep.equal({ role: 'user', content: 'Hello world' });
    });

    it('asks the model to detect the language when no source is given', async () => {
      await provider().translate({ text: 'Hallo', targetLanguage: 'es' });
      const system = server.requests[0]!.body.messages[0].content as string;
      expect(system).to.contain('Detect the language of the text in the user\'s message and translate it into Spanish (es).');
      expect(system).not.to.contain(' from ');
    });

    it('sends no Authorization header when no key is configured (Ollama, vLLM)', async () => {
      await provider({ apiKey: undefined }).translate({ text: 'Hi', targetLanguage: 'de' });
      expect(server.requests[0]!.headers).not.to.have.property('authorization');
    });

    it('joins the text parts of a content given as a list of parts', async () => {
      const completion = chatCompletion('', 12) as { choices: Array<{ message: { content: unknown } }> };
      completion.choices[0]!.message.content = [
        { type: 'thinking', thinking: 'The user wants French.' },
        { type: 'reasoning', text: 'a part that is not text, with a text member' },
        { type: 'text', text: ' Salut ' },
      ];
      answer({ json: completion });
      expect(await provider().translate({ text: 'Hi', targetLanguage: 'fr' })).to.deep.equal({ content: 'Salut', totalTokens: 12 });
    });

    it('takes the first choice’s message when the answer holds several', async () => {
      const completion = chatCompletion('Bonjour', 12) as { choices: Array<{ message: { content: unknown } }> };
      completion.choices.push({ ...completion.choices[0]!, message: { ...completion.choices[0]!.message, content: 'Salut' } });
      answer({ json: completion });
      expect(await provider().translate({ text: 'Hi', targetLanguage: 'fr' })).to.deep.equal({ content: 'Bonjour', totalTokens: 12 });
    });

    it('sends consecutive calls over one kept-alive connection', async () => {
      const translator = provider();
      for (const text of ['One', 'Two', 'Three']) await translator.translate({ text, targetLanguage: 'fr' });
      expect(server.requests).to.have.length(3);
      expect(new Set(server.requests.map((received) => received.remotePort)).size).to.equal(1);
    });

    it('opens a new connection when the provider has closed the idle one', async () => {
      const translator = provider();
      await translator.translate({ text: 'One', targetLanguage: 'fr' });
      server.closeIdleConnections();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await translator.translate({ text: 'Two', targetLanguage: 'fr' })).to.deep.equal({ content: 'Translated: Two', totalTokens: 10 });
      expect(server.requests[0]!.remotePort).not.to.equal(server.requests[1]!.remotePort);
    });

    it('takes the completion that follows a 103 Early Hints as the answer, whatever the hints’ headers say', async () => {
      // An informational answer describes no answer: not even a content-length it should not carry
      // (RFC 9110 §8.6) may count against the size limit.
      answer({ json: chatCompletion('Bonjour', 12), chunked: true, earlyHints: { link: '</style.css>; rel=preload; as=style', 'content-length': '1000000' } });
      expect(await provider({ maxAnswerBytes: 4096 }).translate({ text: 'Hello', targetLanguage: 'fr' })).to.deep.equal({ content: 'Bonjour', totalTokens: 12 });
      expect(server.requests).to.have.length(1);
    });

    it('accepts a usage of 0 tokens (some local servers report none spent)', async () => {
      answer({ json: chatCompletion('Hola', 0) });
      expect((await provider().translate({ text: 'Hi', targetLanguage: 'es' })).totalTokens).to.equal(0);
    });
  });

  describe('when the base URL has a trailing slash or a query', () => {
    it('appends /chat/completions to the path and keeps the query', async () => {
      await provider({ baseUrl: `${server.origin}/openai/v1/?api-version=2024-10-21` }).translate({ text: 'Hi', targetLanguage: 'fr' });
      expect(server.requests[0]!.path).to.equal('/openai/v1/chat/completions?api-version=2024-10-21');
      expect(chatCompletionsUrl('http://localhost:11434/v1').href).to.equal('http://localhost:11434/v1/chat/completions');
    });
  });

  describe('when the answer is not usable', () => {
    const broken = (mutate: (completion: any) => void): FakeChatReply => {
      const completion = chatCompletion('Bonjour', 20);
      mutate(completion);
      return { json: completion };
    };
    const cases: Array<[string, FakeChatReply, string]> = [
      ['a 401 (bad key)', { status: 401, json: { error: { message: 'Incorrect API key provided: sk-t***123' } } }, 'HTTP 401'],
      ['a 429 from the provider', { status: 429, json: { error: { message: 'Rate limit reached' } } }, 'HTTP 429'],
      ['a 500', { status: 500, raw: 'Internal Server Error', contentType: 'text/plain' }, 'HTTP 500'],
      ['a 503 with a completion-shaped body', { status: 503, json: chatCompletion('Bonjour', 20) }, 'HTTP 503'],
      ['malformed JSON', { raw: '{"choices": [' }, 'malformed JSON'],
      ['an empty body', { raw: '' }, 'malformed JSON'],
      ['a JSON array', { json: [chatCompletion('Bonjour', 20)] }, 'the answer is not a JSON object'],
      ['empty choices', broken((c) => (c.choices = [])), 'no choices'],
      ['no choices at all', broken((c) => delete c.choices), 'no choices'],
      ['an empty content', broken((c) => (c.choices[0].message.content = '')), 'empty content'],
      ['a blank content', broken((c) => (c.choices[0].message.content = ' \n ')), 'empty content'],
      ['a null content (a refusal)', broken((c) => (c.choices[0].message = { role: 'assistant', content: null, refusal: 'No.' })), 'empty content'],
      ['no message', broken((c) => delete c.choices[0].message), 'empty content'],
      ['missing usage', broken((c) => delete c.usage), 'missing or invalid usage.total_tokens'],
      ['usage without total_tokens', broken((c) => delete c.usage.total_tokens), 'missing or invalid usage.total_tokens'],
      ['total_tokens as a string', broken((c) => (c.usage.total_tokens = '20')), 'missing or invalid usage.total_tokens'],
      ['negative total_tokens', broken((c) => (c.usage.total_tokens = -5)), 'missing or invalid usage.total_tokens'],
      ['fractional total_tokens', broken((c) => (c.usage.total_tokens = 2.5)), 'missing or invalid usage.total_tokens'],
    ];
    for (const [name, reply, reason] of cases) {
      it(`fails with AI_PROVIDER_FAILED (${reason}) for ${name}`, async () => {
        answer(reply);
        const error = await failure(provider().translate({ text: 'Hello', targetLanguage: 'fr' }));
        expect(error).to.deep.equal({ code: ErrorCodes.AI_PROVIDER_FAILED, message: `AI provider request failed: ${reason}` });
      });
    }

    it('does not follow a redirect (following it would turn the POST into a GET)', async () => {
      answer({ status: 307, raw: '' });
      const error = await failure(provider().translate({ text: 'Hello', targetLanguage: 'fr' }));
      expect(error.message).to.equal('AI provider request failed: HTTP 307');
      expect(server.requests).to.have.length(1);
    });

    it('refuses an answer larger than the limit', async () => {
      answer({ json: chatCompletion('x'.repeat(5000), 20) });
      const error = await failure(provider({ maxAnswerBytes: 1024 }).translate({ text: 'Hello', targetLanguage: 'fr' }));
      expect(error.message).to.equal('AI provider request failed: answer too large');
    });

    for (const [framing, chunked] of [['declared by its content-length', false], ['sent chunked, its size known only once read', true]] as const) {
      describe(`when the answer's size is ${framing}`, () => {
        const large = chatCompletion('x'.repeat(5000), 20);
        const size = Buffer.byteLength(JSON.stringify(large));

        it('refuses an answer one byte over the limit', async () => {
          answer({ json: large, chunked });
          const error = await failure(provider({ maxAnswerBytes: size - 1 }).translate({ text: 'Hello', targetLanguage: 'fr' }));
          expect(error).to.deep.equal({ code: ErrorCodes.AI_PROVIDER_FAILED, message: 'AI provider request failed: answer too large' });
        });

        it('takes an answer of exactly the limit', async () => {
          answer({ json: large, chunked });
          const result = await provider({ maxAnswerBytes: size }).translate({ text: 'Hello', targetLanguage: 'fr' });
          expect(result).to.deep.equal({ content: 'x'.repeat(5000), totalTokens: 20 });
        });
      });
    }

    it('logs the reason without the key, the text or the answer', async () => {
      answer({ status: 401, json: { error: { message: 'Incorrect API key provided: sk-test-123' } } });
      await failure(provider().translate({ text: 'Secret draft', targetLanguage: 'fr' }));
      expect(warnings).to.deep.equal([
        { message: 'AI provider call failed', code: ErrorCodes.AI_PROVIDER_FAILED, reason: 'AI provider request failed: HTTP 401', model: 'gpt-test' },
      ]);
      expect(JSON.stringify(warnings)).not.to.match(/sk-test|Secret draft|Incorrect/);
    });
  });

  describe('when the provider cannot be reached', () => {
    it('fails with AI_PROVIDER_FAILED', async () => {
      const gone = await FakeChatCompletionsServer.start();
      const baseUrl = gone.baseUrl;
      await gone.close();
      const error = await failure(provider({ baseUrl }).translate({ text: 'Hello', targetLanguage: 'fr' }));
      expect(error).to.deep.equal({ code: ErrorCodes.AI_PROVIDER_FAILED, message: 'AI provider request failed: unreachable (ECONNREFUSED)' });
    });
  });

  describe('when the provider never answers', () => {
    for (const hang of ['before-headers', 'after-headers'] as const) {
      it(`fails with AI_PROVIDER_TIMEOUT after AI_TIMEOUT_MS (${hang})`, async () => {
        answer({ hang });
        const started = Date.now();
        const error = await failure(provider({ timeoutMs: 150 }).translate({ text: 'Hello', targetLanguage: 'fr' }));
        const elapsed = Date.now() - started;
        expect(error).to.deep.equal({ code: ErrorCodes.AI_PROVIDER_TIMEOUT, message: 'AI provider timed out after 150 ms' });
        expect(elapsed).to.be.at.least(140).and.below(1500);
        expect(server.requests).to.have.length(1);
      });
    }
  });
});
