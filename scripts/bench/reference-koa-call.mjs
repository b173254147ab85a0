// The Koa reference plus the one thing translate adds to a request: a call to the AI provider,
// made by the service's own provider adapter (undici, decision 0615), before the constant answer.
// Run by translate-floor.mjs with AI_BASE_URL set. Prints `listening <port>`.
import { OpenAiChatTranslationProvider } from '../../packages/adapter-ai/dist/index.js';
import { readRouteTable } from './constant-envelope.mjs';
import { referenceKoaApp } from './reference-apps.mjs';

const provider = new OpenAiChatTranslationProvider({ baseUrl: process.env.AI_BASE_URL, apiKey: 'bench-provider-key', model: 'bench-model', timeoutMs: 30_000 });
const beforeAnswer = (ctx) => provider.translate({ text: String(ctx.request.body?.text ?? ''), targetLanguage: 'fr' });
const server = referenceKoaApp(await readRouteTable(process.argv[2]), { beforeAnswer }).listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => process.exit(0));
