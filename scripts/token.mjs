#!/usr/bin/env node
// npm run token -- --role editor [--sub editor-1] [--tenant default] [--expires 1h]
// Prints a development bearer token (HS256) signed with CMS_JWT_SECRET, alone on stdout, so
// TOKEN=$(npm run --silent token -- --role editor) works. Says what is wrong, exit 2, when the
// secret is missing or too short for the service to accept it (CONTRACT §1: at least 32 bytes).
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';

const ROLES = ['admin', 'editor', 'author', 'member'];
const fail = (message) => {
  process.stderr.write(`token: ${message}\n`);
  process.exit(2);
};

let values;
try {
  ({ values } = parseArgs({
    options: {
      role: { type: 'string', default: 'member' },
      sub: { type: 'string' },
      tenant: { type: 'string' },
      expires: { type: 'string', default: '1h' },
    },
    strict: true,
  }));
} catch (error) {
  fail(`${error.message}\nusage: npm run --silent token -- --role editor [--sub user-1] [--tenant default] [--expires 1h]`);
}
if (!ROLES.includes(values.role)) fail(`--role must be one of ${ROLES.join(', ')} (got "${values.role}")`);
const secret = process.env.CMS_JWT_SECRET;
if (!secret) {
  fail('CMS_JWT_SECRET is not set in this shell. Export the same secret the service was started with, e.g.\n  export CMS_JWT_SECRET=$(openssl rand -base64 48)');
}
if (Buffer.byteLength(secret) < 32) fail(`CMS_JWT_SECRET has ${Buffer.byteLength(secret)} bytes; the service refuses secrets under 32`);

const jwt = new SignJWT({ role: values.role, ...(values.tenant ? { tenant: values.tenant } : {}) })
  .setProtectedHeader({ alg: 'HS256' })
  .setSubject(values.sub ?? `${values.role}-1`)
  .setIssuedAt()
  .setExpirationTime(values.expires);
process.stdout.write(`${await jwt.sign(new TextEncoder().encode(secret))}\n`);
