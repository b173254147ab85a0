// Seeding through the API, following docs/CONTRACT §2: forms, submissions, articles and
// comments for the operations that need them. Used by the operation catalogue and the scale
// scenarios; only called when the routes involved are served.

/** The body of a form with one section; `fields` default to one optional text field `name`; `flags` (isActive, visibility) as given. */
export function smallFormBody({ slug, fields, flow, ...flags }) {
  return {
    title: { en: `Bench form ${slug}` },
    slug,
    sections: [{ title: { en: 'Main' }, fields: fields ?? [{ name: 'name', type: 'text', label: { en: 'Name' } }] }],
    ...(flow ? { flow } : {}),
    ...flags,
  };
}

/** A form of `smallFormBody`. */
export async function createForm(api, { slug, fields, flow, visibility } = {}) {
  const body = smallFormBody({ slug, fields, flow, ...(visibility ? { visibility } : {}) });
  // Forms need only the key (decision 0202); x-user-id sets createdBy.
  const data = await api.call('POST', '/forms/create', { headers: { 'x-user-id': 'bench-editor' }, body, expect: [201] });
  return data.form;
}

/** A public submission of `values` to a form; returns the submission. */
export async function submit(api, formId, values) {
  const data = await api.call('POST', `/forms/${formId}/submit`, { headers: { 'x-user-id': 'bench-submitter' }, body: { values }, expect: [201] });
  return data.submission;
}

/**
 * Two forms for relation connect: `target` (a text field) and `source` whose field `ref` relates
 * to `target` with one value. Returns both forms and one submission of each.
 */
export async function relationPair(api, tag) {
  const target = await createForm(api, { slug: `bench-target-${tag}` });
  const source = await createForm(api, {
    slug: `bench-source-${tag}`,
    fields: [
      { name: 'name', type: 'text', label: { en: 'Name' } },
      { name: 'ref', type: 'relation', label: { en: 'Related' }, relation: { formId: target.id, multiple: false } },
    ],
  });
  const targetSubmission = await submit(api, target.id, { name: 'target' });
  const sourceSubmission = await submit(api, source.id, { name: 'source' });
  return { target, source, targetSubmission, sourceSubmission };
}

/** Source submissions a connect takes turns over: far more than the requests in flight (10 connections). */
export const RELATION_SOURCES = 64;

/**
 * A connect of `pair` (relationPair) that writes every time: connecting the id a single-value
 * relation holds writes nothing (decision 0204), so RELATION_SOURCES submissions of the source
 * form take turns (`cycle`, load-generator.mjs), each alternating between two related ones. A
 * source comes round again only after every other: never twice among the requests in flight.
 */
export async function replacingConnect(api, { source, target, sourceSubmission, targetSubmission }) {
  const other = await submit(api, target.id, { name: 'other target' });
  const more = await Promise.all(Array.from({ length: RELATION_SOURCES - 1 }, () => submit(api, source.id, { name: 'source' })));
  const sources = [sourceSubmission, ...more];
  const turns = (related) => sources.map(({ id }) => ({ source: id, related: related.id }));
  const cycle = [...turns(targetSubmission), ...turns(other)];
  return api.request('POST', '/forms/submission/{{source}}/relations/ref/connect', { body: { relatedSubmissionId: '{{related}}' }, cycle });
}

export async function createArticle(api, title = 'Bench article') {
  const data = await api.call('POST', '/articles/create', { headers: api.bearer('editor'), body: { title, content: 'Lorem ipsum '.repeat(20) }, expect: [201] });
  return data.article;
}

/** An approved comment on a new article. */
export async function approvedComment(api) {
  const article = await createArticle(api, 'Bench article with a comment');
  const created = await api.call('POST', `/articles/${article.id}/comments`, {
    headers: { 'x-user-id': 'bench-commenter' },
    body: { content: 'A comment worth reacting to.' },
    expect: [201],
  });
  await api.call('PUT', `/articles/comments/${created.comment.id}/approve`, { headers: api.bearer('editor') });
  return { article, comment: created.comment };
}

/** A form body of about 1 KB; `{{seq}}` in the slug is replaced per request by the load generator. */
export function formBody(slug) {
  return {
    title: { en: 'Customer feedback', fr: 'Avis des clients', de: 'Kundenfeedback' },
    slug,
    description: { en: 'Tell us how we did. Every answer is read by a person on the team.' },
    submitButtonText: { en: 'Send', fr: 'Envoyer' },
    sections: [
      {
        title: { en: 'About you' },
        fields: [
          { name: 'fullName', type: 'text', label: { en: 'Full name', fr: 'Nom complet' }, required: true },
          { name: 'email', type: 'email', label: { en: 'E-mail' }, required: true, placeholder: { en: 'you@example.com' } },
          { name: 'phone', type: 'phone', label: { en: 'Phone' } },
        ],
      },
      {
        title: { en: 'Your visit' },
        fields: [
          {
            name: 'rating',
            type: 'select',
            label: { en: 'Rating' },
            options: [
              { value: 'good', label: { en: 'Good' } },
              { value: 'fair', label: { en: 'Fair' } },
              { value: 'poor', label: { en: 'Poor' } },
            ],
          },
          { name: 'visitDate', type: 'date', label: { en: 'Date of visit' } },
          { name: 'comments', type: 'textarea', label: { en: 'Comments' } },
          { name: 'subscribe', type: 'checkbox', label: { en: 'Keep me informed' } },
        ],
      },
    ],
  };
}
