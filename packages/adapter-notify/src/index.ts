/**
 * @cms/adapter-notify — notification delivery adapters of the CMS service: e-mail over SMTP
 * (nodemailer) and push as a JSON webhook (fetch), for the core EmailSender and PushSender ports.
 */
export * from './smtp-email.sender.js';
export * from './webhook-push.sender.js';
export * from './refused-addresses.js';
export * from './webhook-url.guard.js';
export * from './webhook-http.sender.js';
