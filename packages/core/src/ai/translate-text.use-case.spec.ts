import { expect } from 'chai';
import { MemoryAiUsageLedger } from '../memory/memory-ai-usage-ledger.js';
import { MemoryTenantRepository } from '../memory/memory-tenancy.repository.js';
import { ManualClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { StaticLanguageCatalog } from '../shared/languages.js';
import { TranslateText, TRANSLATION_TEXT_MAX } from './translate-text.use-case.js';
import {
  aiProviderFailed,
  aiProviderTimedOut,
  UnconfiguredTranslationProvider,
  type TranslationProvider,
  type TranslationRequest,
  type TranslationResult,
} from './translation.ports.js';
import { anonymousCaller } from '../testing/callers.js';

/** A provider that answers from a script: fixed tokens per call, or a failure, asynchronously. */
class ScriptedProvider implements TranslationProvider {
  readonly configured = true;
  readonly calls: TranslationRequest[] = [];
  tokens = 10;
  failure: Error | undefined;

  async translate(request: TranslationRequest): Promise<TranslationResult> {
    this.calls.push(request);
    await Promise.resolve(); // answer on a later microtask, so concurrent calls interleave their charges
    if (this.failure) throw this.failure;
    return { content: `[${request.targetLanguage}] ${request.text}`, totalTokens: this.tokens };
  }
}

describe('TranslateText', () => {
  const setup = async (options: { defaultLimit?: number; provider?: TranslationProvider } = {}) => {
    const tenants = new MemoryTenantRepository();
    for (const id of ['acme', 'other']) {
      await tenants.insert({ id, name: id, aiTokenLimitMonthly: null, adminEmails: [], createdAt: new Date(0) });
    }
    const ledger = new MemoryAiUsageLedger();
    const clock = new ManualClock('2026-03-15T12:00:00.000Z');
    const provider = new ScriptedProvider();
    const translate = new TranslateText(
      options.provider ?? provider,
      ledger,
      tenants,
      new StaticLanguageCatalog(['en', 'fr', 'de']),
      { defaultMonthlyTokenLimit: options.defaultLimit ?? 100 },
      clock,
    );
    return { tenants, ledger, clock, provider, translate };
  };
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: { code?: string }) => e.code ?? String(e));
  const input = { text: 'Hello', targetLanguage: 'fr' };

  describe('when the provider answers', () => {
    it('returns the content and charges the provider’s tokens to the month', async () => {
      const { translate, provider, ledger } = await setup();
      provider.tokens = 42;
      const result = await translate.execute(anonymousCaller('acme'), { text: 'Hello', targetLanguage: 'fr', sourceLanguage: 'en' });
      expect(result).to.deep.equal({ content: '[fr] Hello', tokens: { used: 42, remaining: 58, limit: 100 } });
      expect(provider.calls).to.deep.equal([{ text: 'Hello', targetLanguage: 'fr', sourceLanguage: 'en' }]);
      expect(await ledger.get('acme', '2026-03')).to.equal(42);
    });

    it('passes no source language when none (or null) is given', async () => {
      const { translate, provider } = await setup();
      await translate.execute(anonymousCaller('acme'), { text: 'Hello', targetLanguage: 'de', sourceLanguage: null });
      expect(provider.calls[0]).to.deep.equal({ text: 'Hello', targetLanguage: 'de' });
    });

    it('reports used including earlier calls of the month', async () => {
      const { translate, provider } = await setup();
      provider.tokens = 30;
      await translate.execute(anonymousCaller('acme'), input);
      provider.tokens = 25;
      expect((await translate.execute(anonymousCaller('acme'), input)).tokens).to.deep.equal({ used: 55, remaining: 45, limit: 100 });
    });
  });

  describe('when the quota is reached', () => {
    it('refuses with AI_QUOTA_EXCEEDED once used equals the limit exactly, without calling the provider', async () => {
      const { translate, provider, ledger } = await setup();
      provider.tokens = 100;
      expect((await translate.execute(anonymousCaller('acme'), input)).tokens).to.deep.equal({ used: 100, remaining: 0, limit: 100 });
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_QUOTA_EXCEEDED);
      expect(provider.calls).to.have.length(1);
      expect(await ledger.get('acme', '2026-03')).to.equal(100);
    });

    it('lets one call below the limit through and charges all of it, then refuses', async () => {
      const { translate, provider, ledger } = await setup();
      await ledger.add('acme', '2026-03', 99);
      provider.tokens = 30;
      expect((await translate.execute(anonymousCaller('acme'), input)).tokens).to.deep.equal({ used: 129, remaining: 0, limit: 100 });
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_QUOTA_EXCEEDED);
      expect(await ledger.get('acme', '2026-03')).to.equal(129);
    });

    it('applies the tenant’s own limit instead of the default, and the default again once cleared', async () => {
      const { translate, provider, tenants, ledger } = await setup({ defaultLimit: 1000 });
      await tenants.setAiTokenLimit('acme', 50);
      provider.tokens = 50;
      expect((await translate.execute(anonymousCaller('acme'), input)).tokens).to.deep.equal({ used: 50, remaining: 0, limit: 50 });
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_QUOTA_EXCEEDED);
      expect((await translate.execute(anonymousCaller('other'), input)).tokens.limit).to.equal(1000);
      await tenants.setAiTokenLimit('acme', null);
      expect((await translate.execute(anonymousCaller('acme'), input)).tokens).to.deep.equal({ used: 100, remaining: 900, limit: 1000 });
      expect(await ledger.get('acme', '2026-03')).to.equal(100);
    });

    it('refuses every call when the limit is 0', async () => {
      const { translate, provider, tenants } = await setup();
      await tenants.setAiTokenLimit('acme', 0);
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_QUOTA_EXCEEDED);
      expect(provider.calls).to.have.length(0);
    });
  });

  describe('when calls run concurrently', () => {
    it('counts the tokens of every call, even past the limit', async () => {
      const { translate, provider, ledger } = await setup({ defaultLimit: 100 });
      provider.tokens = 7;
      const results = await Promise.all(Array.from({ length: 20 }, () => translate.execute(anonymousCaller('acme'), input)));
      expect(await ledger.get('acme', '2026-03')).to.equal(140);
      const used = results.map((r) => r.tokens.used).sort((a, b) => a - b);
      expect(used).to.deep.equal(Array.from({ length: 20 }, (_, i) => (i + 1) * 7));
      expect(results.find((r) => r.tokens.used === 140)?.tokens.remaining).to.equal(0);
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_QUOTA_EXCEEDED);
    });
  });

  describe('when the month rolls over (UTC)', () => {
    it('charges the last millisecond of a month to that month and starts the next at 0', async () => {
      const { translate, provider, clock, ledger } = await setup();
      provider.tokens = 100;
      clock.set('2026-03-31T23:59:59.999Z');
      await translate.execute(anonymousCaller('acme'), input);
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_QUOTA_EXCEEDED);
      clock.set('2026-04-01T00:00:00.000Z');
      provider.tokens = 10;
      expect((await translate.execute(anonymousCaller('acme'), input)).tokens).to.deep.equal({ used: 10, remaining: 90, limit: 100 });
      expect(await ledger.get('acme', '2026-03')).to.equal(100);
      expect(await ledger.get('acme', '2026-04')).to.equal(10);
    });

    it('rolls over from December into January of the next year', async () => {
      const { translate, clock, ledger } = await setup();
      clock.set('2026-12-31T23:00:00.000Z');
      await translate.execute(anonymousCaller('acme'), input);
      clock.set('2027-01-01T00:30:00.000Z');
      await translate.execute(anonymousCaller('acme'), input);
      expect(await ledger.get('acme', '2026-12')).to.equal(10);
      expect(await ledger.get('acme', '2027-01')).to.equal(10);
    });
  });

  describe('when tenants differ', () => {
    it('keeps each tenant’s usage and quota apart', async () => {
      const { translate, provider } = await setup();
      provider.tokens = 100;
      await translate.execute(anonymousCaller('acme'), input);
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_QUOTA_EXCEEDED);
      provider.tokens = 5;
      expect((await translate.execute(anonymousCaller('other'), input)).tokens).to.deep.equal({ used: 5, remaining: 95, limit: 100 });
    });
  });

  describe('when the provider fails', () => {
    const failures: Array<[string, Error, string]> = [
      ['fails', aiProviderFailed('HTTP 500'), ErrorCodes.AI_PROVIDER_FAILED],
      ['times out', aiProviderTimedOut(100), ErrorCodes.AI_PROVIDER_TIMEOUT],
    ];
    for (const [name, failure, code] of failures) {
      it(`answers ${code} when it ${name} and charges nothing`, async () => {
        const { translate, provider, ledger } = await setup();
        provider.failure = failure;
        expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(code);
        expect(await ledger.get('acme', '2026-03')).to.equal(0);
      });
    }

    it('answers AI_PROVIDER_FAILED and charges nothing when the reported tokens are not a whole number', async () => {
      for (const tokens of [Number.NaN, -1, 2.5]) {
        const { translate, provider, ledger } = await setup();
        provider.tokens = tokens;
        expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_PROVIDER_FAILED);
        expect(await ledger.get('acme', '2026-03')).to.equal(0);
      }
    });
  });

  describe('when no provider is configured', () => {
    it('answers AI_NOT_CONFIGURED, before the quota', async () => {
      const { translate, tenants } = await setup({ provider: new UnconfiguredTranslationProvider() });
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_NOT_CONFIGURED);
      await tenants.setAiTokenLimit('acme', 0);
      expect(await codeOf(translate.execute(anonymousCaller('acme'), input))).to.equal(ErrorCodes.AI_NOT_CONFIGURED);
    });

    it('still checks the input first', async () => {
      const { translate } = await setup({ provider: new UnconfiguredTranslationProvider() });
      expect(await codeOf(translate.execute(anonymousCaller('acme'), { text: ' ', targetLanguage: 'fr' }))).to.equal(ErrorCodes.VALIDATION_FAILED);
    });
  });

  describe('when the input is not acceptable', () => {
    const cases: Array<[string, object, string]> = [
      ['a blank text', { text: ' \n\t ', targetLanguage: 'fr' }, 'text must not be blank'],
      ['a text that is not a string', { text: 42, targetLanguage: 'fr' }, 'text must be a string'],
      ['a text over the limit', { text: 'x'.repeat(TRANSLATION_TEXT_MAX + 1), targetLanguage: 'fr' }, 'text must NOT have more than 20000 characters'],
      ['a target the tenant lacks', { text: 'Hi', targetLanguage: 'es' }, 'targetLanguage must be one of en, fr, de'],
      ['a source the tenant lacks', { text: 'Hi', targetLanguage: 'fr', sourceLanguage: 'ar' }, 'sourceLanguage must be one of en, fr, de'],
    ];
    for (const [name, body, message] of cases) {
      it(`refuses ${name} without calling the provider`, async () => {
        const { translate, provider } = await setup();
        const error = await translate.execute(anonymousCaller('acme'), body as never).catch((e: unknown) => e);
        expect((error as { code: string }).code).to.equal(ErrorCodes.VALIDATION_FAILED);
        expect((error as Error).message).to.equal(message);
        expect(provider.calls).to.have.length(0);
      });
    }

    it('counts characters, not UTF-16 units: 20000 emoji are within the limit', async () => {
      const { translate, provider } = await setup();
      await translate.execute(anonymousCaller('acme'), { text: '😀'.repeat(TRANSLATION_TEXT_MAX), targetLanguage: 'fr' });
      expect(provider.calls).to.have.length(1);
    });

    it('refuses 20001 emoji: one character over the limit', async () => {
      const { translate, provider } = await setup();
      const error = await translate.execute(anonymousCaller('acme'), { text: '😀'.repeat(TRANSLATION_TEXT_MAX + 1), targetLanguage: 'fr' }).catch((e: unknown) => e);
      expect((error as Error).message).to.equal('text must NOT have more than 20000 characters');
      expect(provider.calls).to.have.length(0);
    });
  });
});
