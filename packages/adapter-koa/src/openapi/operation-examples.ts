/**
 * One example request per operation, shown in `openapi.json` (parameter `example`s and the
 * request body's `example`) and sent as-is by the conformance test, which checks every answer
 * against the document's own response schema. Ids are well-formed but name no record: a read
 * of one answers its documented 404 until the test substitutes ids it created. Multilingual texts
 * and language codes are in the configured languages (the first, and the second where there is
 * one), so that every example is a request the service accepts.
 */
export interface OperationExample {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** Header parameters the operation reads (`x-user-id`, `x-guest-id`, `x-captcha-token`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

const FORM_ID = '65f0c0ffee0000000000abcd';
const SUBMISSION_ID = '65f0c0ffee0000000000dcba';
const ARTICLE_ID = '65f0c0ffee00000000000a01';
const COMMENT_ID = '65f0c0ffee00000000000c01';
const AUTHOR_ID = '65f0c0ffee00000000000b01';
const CATEGORY_ID = '65f0c0ffee00000000000e01';
const WEBHOOK_ID = '65f0c0ffee00000000000d01';
/** A documentation address (RFC 5737): public, so the SSRF guard lets it through without a DNS lookup. */
const WEBHOOK_URL = 'https://203.0.113.10/hooks/cms';
const USER = { 'x-user-id': 'user-42' };
const GUEST = { 'x-guest-id': 'guest-0001', 'x-captcha-token': 'captcha-token-from-the-widget' };

/** The example texts, in English and in the default languages (CMS_LANGUAGES unset) where they differ. */
const TEXTS = {
  contactUs: { en: 'Contact us', fr: 'Contactez-nous', es: 'Contáctenos', de: 'Kontakt', ar: 'اتصل بنا' },
  writeToUs: { en: 'Write to us', fr: 'Écrivez-nous', es: 'Escríbanos', de: 'Schreiben Sie uns', ar: 'راسلنا' },
} as const;

/**
 * The examples in `languages` (CMS_LANGUAGES; English and French when none are given): texts in
 * the first, with a translation into a second one where there is one (French preferred).
 */
export function operationExamples(languages: readonly string[] = ['en', 'fr']): Readonly<Record<string, OperationExample>> {
  const first = languages[0] ?? 'en';
  const second = ['fr', ...languages].find((language) => language !== first && languages.includes(language)) ?? first;
  const textIn = (texts: Readonly<Record<string, string>>, language: string) => texts[language] ?? texts.en!;
  /** A multilingual text: one text in the first language, or one of `TEXTS` in both. */
  const localized = (texts: Readonly<Record<string, string>> | string): Record<string, string> =>
    typeof texts === 'string' ? { [first]: texts } : { [first]: textIn(texts, first), [second]: textIn(texts, second) };
  return {
    saveDashboardConfig: {
      headers: USER,
      body: { templateId: 'ops', slots: [{ type: 'topArticles', span: 'half' }, { type: 'contentTrend', settings: { range: '1month' } }] },
    },
    getDashboardConfig: { headers: USER },
    getRepurposeTemplate: {},
    updateRepurposeTemplate: { headers: USER, body: { platforms: { twitter: { maxHashtags: 2, tone: 'humorous' } } } },
    translateText: { body: { text: 'Hello, world', targetLanguage: second } },
    createForm: {
      body: {
        title: localized(TEXTS.contactUs),
        slug: 'contact-us',
        sections: [
          {
            title: localized('About you'),
            fields: [
              { name: 'name', type: 'text', label: localized('Name'), required: true },
              { name: 'email', type: 'email', label: localized('E-mail') },
              { name: 'message', type: 'textarea', label: localized('Message'), required: true },
            ],
          },
        ],
      },
    },
    getFormById: { params: { id: FORM_ID } },
    getNextFormById: { params: { id: FORM_ID } },
    getSubmissionById: { params: { id: SUBMISSION_ID } },
    connectSubmissionRelation: {
      params: { id: SUBMISSION_ID, fieldName: 'employer' },
      body: { relatedSubmissionId: '65f0c0ffee0000000000dcbb' },
    },
    submitForm: {
      params: { id: FORM_ID },
      headers: { 'x-captcha-token': 'captcha-token-from-the-widget' },
      body: { values: { name: 'Ada', email: 'ada@example.org', message: 'Hello' } },
    },
    submitFormInternally: {
      params: { id: FORM_ID },
      headers: USER,
      body: { values: { name: 'Ada', email: 'ada@example.org', message: 'Hello' } },
    },
    createAuthor: { body: { name: 'Ada Lovelace', email: 'ada@example.org', bio: 'Writes about engines.' } },
    getAuthor: { params: { id: AUTHOR_ID } },
    deleteAuthor: { params: { id: AUTHOR_ID } },
    createCategory: { body: { name: 'Engineering' } },
    createArticle: { body: { title: 'Hello', content: 'The first article.' } },
    getArticle: { params: { id: ARTICLE_ID } },
    setArticleReaction: { params: { id: ARTICLE_ID }, headers: GUEST, body: { type: 'like' } },
    removeArticleReaction: { params: { id: ARTICLE_ID }, headers: GUEST },
    createComment: { params: { id: ARTICLE_ID }, headers: USER, body: { content: 'Nice piece', authorName: 'Ada' } },
    approveComment: { params: { commentId: COMMENT_ID } },
    setCommentReaction: { params: { commentId: COMMENT_ID }, headers: USER, body: { type: 'dislike' } },
    removeCommentReaction: { params: { commentId: COMMENT_ID }, headers: USER },
    getCommentReactionSummary: { params: { commentId: COMMENT_ID }, headers: USER },
    // Created disabled (and left so by the update): the conformance test sends these, and a delivery must not leave the machine.
    // Content management (CONTRACT §6)
    listFormSubmissions: { params: { id: FORM_ID } },
    exportFormSubmissions: { params: { id: FORM_ID }, query: { format: 'ndjson' } },
    listArticleComments: { params: { id: ARTICLE_ID } },
    getFormBySlug: { params: { slug: 'contact-us' } },
    getCategoryById: { params: { id: CATEGORY_ID } },
    updateForm: { params: { id: FORM_ID }, body: { title: localized(TEXTS.writeToUs) } },
    updateArticle: { params: { id: ARTICLE_ID }, body: { title: 'Hello again', content: 'The first article, revised.' } },
    updateCategory: { params: { id: CATEGORY_ID }, body: { name: 'Engineering and design' } },
    updateAuthor: { params: { id: AUTHOR_ID }, body: { bio: 'Writes about engines and looms.' } },
    disconnectSubmissionRelation: { params: { id: SUBMISSION_ID, fieldName: 'employer' }, body: { relatedSubmissionId: '65f0c0ffee0000000000dcbb' } },
    deleteSubmission: { params: { id: SUBMISSION_ID } },
    deleteForm: { params: { id: FORM_ID } },
    deleteArticle: { params: { id: ARTICLE_ID } },
    deleteCategory: { params: { id: CATEGORY_ID } },
    deleteComment: { params: { commentId: COMMENT_ID } },
    createWebhook: { body: { url: WEBHOOK_URL, events: ['form.submitted', 'comment.created'], description: 'Our CRM', enabled: false } },
    getWebhook: { params: { id: WEBHOOK_ID } },
    updateWebhook: { params: { id: WEBHOOK_ID }, body: { events: ['*'], description: 'Every event, to our CRM' } },
    deleteWebhook: { params: { id: WEBHOOK_ID } },
    listWebhookDeliveries: { params: { id: WEBHOOK_ID } },
  };
}
