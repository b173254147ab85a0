/**
 * One example request per operation, shown in `openapi.json` (parameter `example`s and the
 * request body's `example`) and sent as-is by the conformance test, which checks every answer
 * against the document's own response schema. Ids are well-formed but name no record: a read
 * of one answers its documented 404 until the test substitutes ids it created.
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

export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExample>> = {
  saveDashboardConfig: {
    headers: USER,
    body: { templateId: 'ops', slots: [{ type: 'topArticles', span: 'half' }, { type: 'contentTrend', settings: { range: '1month' } }] },
  },
  getDashboardConfig: { headers: USER },
  getRepurposeTemplate: {},
  updateRepurposeTemplate: { headers: USER, body: { platforms: { twitter: { maxHashtags: 2, tone: 'humorous' } } } },
  translateText: { body: { text: 'Hello, world', targetLanguage: 'fr' } },
  createForm: {
    body: {
      title: { en: 'Contact us', fr: 'Contactez-nous' },
      slug: 'contact-us',
      sections: [
        {
          title: { en: 'About you' },
          fields: [
            { name: 'name', type: 'text', label: { en: 'Name' }, required: true },
            { name: 'email', type: 'email', label: { en: 'E-mail' } },
            { name: 'message', type: 'textarea', label: { en: 'Message' }, required: true },
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
  updateForm: { params: { id: FORM_ID }, body: { title: { en: 'Contact us', fr: 'Écrivez-nous' } } },
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
