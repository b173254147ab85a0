#!/usr/bin/env node
// npm run token -- --role editor [--sub editor-1] [--tenant default] [--expires 1h]   (--help: the options)
// Prints a development bearer token (HS256) signed with CMS_JWT_SECRET, alone on stdout, so
// TOKEN=$(npm run --silent token -- --role editor) works. Says what is wrong, exit 2, when the
// secret is missing or too short for the service to accept it (CONTRACT §1: at least 32 bytes),
// or an option would make a token the service refuses.
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';

const fail = (message) => {
  process.stderr.write(`token: ${message}\n`);
  process.exit(2);
};
// The service's own rules (roles, user and tenant ids), so a token printed here is one it takes.
const { ROLES, USER_ID_PATTERN, isValidTenantId } = await import('@cms/core').catch(() =>
  fail('the packages are not built yet: run npm run build (npm start builds them too), then this again'),
);

const USAGE = 'usage: npm run --silent token -- --role editor [--sub user-1] [--tenant default] [--expires 1h]';
let values;
try {
  ({ values } = parseArgs({
    options: {
      role: { type: 'string', default: 'member' },
      sub: { type: 'string' },
      tenant: { type: 'string' },
      expires: { type: 'string', default: '1h' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(`${USAGE}\nPrints a development bearer token (HS256) signed with CMS_JWT_SECRET: --role ${ROLES.join('|')} (default member), --sub the user id (default <role>-1), --tenant the tenant id (default: the key's tenant decides), --expires a span such as 30m, 1h or 7d (default 1h).\n`);
  process.exit(0);
}
if (!ROLES.includes(values.role)) fail(`--role must be one of ${ROLES.join(', ')} (got "${values.role}")`);
if (values.sub !== undefined && !USER_ID_PATTERN.test(values.sub)) {
  fail(`--sub must be 1-128 letters, digits or _ . : @ - (got ${JSON.stringify(values.sub)})`);
}
if (values.tenant !== undefined && !isValidTenantId(values.tenant)) {
  fail(`--tenant must be a tenant id such as default (lower-case letters, digits, hyphens; got ${JSON.stringify(values.tenant)})`);
}
if (!/^\d+\s?(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks)$/i.test(values.expires) || /^0+\s?[a-z]/i.test(values.expires)) {
  fail(`--expires must be a positive time span such as 30m, 1h or 7d (got ${JSON.stringify(values.expires)})`);
}
const secret = process.env.CMS_JWT_SECRET;
if (!secret) {
  fail(
    "CMS_JWT_SECRET is not set in this shell. Export the secret the service was started with (a new one makes tokens the service refuses):\n" +
      "  export CMS_JWT_SECRET='…'\n" +
      'A service started without one needs a restart with one: export CMS_JWT_SECRET=$(openssl rand -base64 48), then npm start in that shell',
  );
}
if (secret.trim() === '') fail('CMS_JWT_SECRET holds only blanks; the service refuses it. Export the secret the service was started with');
if (Buffer.byteLength(secret) < 32) fail(`CMS_JWT_SECRET has ${Buffer.byteLength(secret)} bytes; the service refuses secrets under 32`);

const jwt = new SignJWT({ role: values.role, ...(values.tenant ? { tenant: values.tenant } : {}) })
  .setProtectedHeader({ alg: 'HS256' })
  .setSubject(values.sub ?? `${values.role}-1`)
  .setIssuedAt()
  .setExpirationTime(values.expires);
process.stdout.write(`${await jwt.sign(new TextEncoder().encode(secret))}\n`);
