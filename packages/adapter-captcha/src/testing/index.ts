/** Test support for users of this adapter: a site-verify endpoint on loopback. */
export * from './local-site-verify.server.js';
