/** @cms/adapter-notify — Notification delivery adapters of the CMS service: e-mail over SMTP and push webhooks. */
export {};
