import { portToken, type PortToken } from './port-token.js';
/** Which language codes a tenant may use in multilingual text and as translation targets. */
export interface LanguageCatalog {
  languagesOf(tenantId: string): readonly string[];
}

export const LanguageCatalogToken: PortToken<LanguageCatalog> = portToken('LanguageCatalog');

export const DEFAULT_LANGUAGES = ['en', 'ar', 'fr', 'es', 'de'] as const;

/** The same languages for every tenant (CMS_LANGUAGES). */
export class StaticLanguageCatalog implements LanguageCatalog {
  readonly #languages: readonly string[];

  constructor(languages: readonly string[] = DEFAULT_LANGUAGES) {
    this.#languages = Object.freeze([...languages]);
  }

  languagesOf(): readonly string[] {
    return this.#languages;
  }
}
