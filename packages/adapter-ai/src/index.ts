/**
 * @cms/adapter-ai — the CMS core TranslationProvider over the OpenAI-compatible
 * chat-completions protocol (hosted OpenAI, gateways, Ollama, vLLM, llama.cpp).
 * Test support (a local chat-completions server) is at `@cms/adapter-ai/testing`.
 */
export * from './openai-chat-translation.provider.js';
export * from './chat-translation.prompt.js';
export * from './chat-completion.answer.js';
