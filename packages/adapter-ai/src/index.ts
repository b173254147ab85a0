/** @cms/adapter-ai — OpenAI-compatible chat-completions adapter for the CMS core TranslationProvider port. */
export {};
