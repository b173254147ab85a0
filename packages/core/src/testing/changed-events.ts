/**
 * A webhook event recorder for core's own specs (not part of the `./testing` entry): it runs each
 * change and keeps the type of every event the change reported (a change that changed nothing
 * reports none), so a spec can say which requests would have sent one.
 */
import type { WebhookEventRecorder } from '../webhooks/webhook-events.js';

export function changedEvents(): { events: WebhookEventRecorder; sent: string[] } {
  const sent: string[] = [];
  const events: WebhookEventRecorder = {
    async around(spec, change) {
      const report = await change();
      if (report.data !== undefined) sent.push(spec.type);
      return report.result;
    },
  };
  return { events, sent };
}
