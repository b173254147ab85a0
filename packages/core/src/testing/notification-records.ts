import type { NewNotificationJob } from '../notifications/notification.ports.js';

/** A job as the forms module would enqueue it. */
export function sampleNotificationJob(overrides: Partial<NewNotificationJob> = {}): NewNotificationJob {
  return {
    tenantId: 'acme',
    channel: 'email',
    audience: 'admin',
    recipients: ['ops@acme.test'],
    message: {
      formId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      formSlug: 'contact',
      formTitle: { en: 'Contact us', fr: 'Contactez-nous' },
      submissionId: 'bbbbbbbbbbbbbbbbbbbbbbbb',
      values: { name: 'Ada', email: 'ada@example.test', topics: ['a', 'b'] },
      submittedBy: null,
      submittedAt: new Date('2026-03-01T09:59:59.123Z'),
    },
    ...overrides,
  };
}
