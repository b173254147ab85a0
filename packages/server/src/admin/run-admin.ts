/**
 * The `cms-admin` command line: tenant, API key and AI usage administration in the configured
 * MongoDB, through the ManageTenants and GetAiUsage use cases. A function of argv, environment, output streams and a
 * storage opener, so tests run it on the collection double; `cms-admin.ts` wires the real one.
 * Exit codes: 0 done, 1 the operation failed (unknown tenant or key, taken id, store failing), 2
 * wrong usage, a malformed argument (found before the store is opened) or no MONGODB_URI.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  apiKeyFingerprint,
  GetAiUsage,
  ErrorCodes,
  isDomainError,
  ManageTenants,
  requireTenantId,
  systemClock,
  type AiUsageLedger,
  type ApiKey,
  type ApiKeyRepository,
  type Clock,
  type TenantRepository,
} from '@cms/core';
import { USAGE_MONTH_PATTERN } from '@cms/core/internal';
import { DEFAULT_AI_TOKEN_LIMIT_MONTHLY } from '../config/ai.config.js';
import { ConfigError, EnvReader, type Env } from '../config/env-reader.js';
import { loadStorageConfig, type StorageConfig } from '../config/service-config.js';

export interface AdminOutput {
  write(text: string): unknown;
}

export interface AdminIo {
  readonly stdout: AdminOutput;
  readonly stderr: AdminOutput;
}

/** The stores the command line works on, and how to let go of them. */
export interface AdminStorage {
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly aiUsage: AiUsageLedger;
  close(): Promise<void>;
}

/** The use cases the commands call. */
interface AdminTools {
  readonly manage: ManageTenants;
  readonly aiUsage: GetAiUsage;
}

export type OpenAdminStorage = (target: { readonly uri: string; readonly database: string }) => Promise<AdminStorage>;

export const AdminExit = { ok: 0, failed: 1, usage: 2 } as const;

interface Command {
  readonly usage: string;
  readonly arguments: number;
  /** The first argument is a tenant id: checked before the store is opened. */
  readonly tenantFirst: boolean;
  readonly acceptsName: boolean;
  readonly acceptsMonth?: boolean;
  readonly run: (tools: AdminTools, args: readonly string[], options: CommandOptions, io: AdminIo) => Promise<void>;
}

/** A command that works without the store (nothing to open, no MONGODB_URI needed). */
interface LocalCommand {
  readonly usage: string;
  readonly run: (io: AdminIo) => void;
}

/** Bytes of randomness in a generated secret: above HS256's 32-byte minimum, as base64 (64 characters). */
const GENERATED_SECRET_BYTES = 48;

const LOCAL_COMMANDS: Readonly<Record<string, LocalCommand>> = {
  'secret generate': {
    usage: 'secret generate   (a fresh random secret for CMS_JWT_SECRET; needs no MONGODB_URI)',
    run: (io) => {
      io.stdout.write(`${randomBytes(GENERATED_SECRET_BYTES).toString('base64')}\n`);
    },
  },
};

interface CommandOptions {
  readonly name: string | undefined;
  readonly month: string | undefined;
}

class UsageError extends Error {}

const COMMANDS: Readonly<Record<string, Command>> = {
  'tenant create': {
    usage: 'tenant create <tenantId> [--name <name>]',
    arguments: 1,
    tenantFirst: true,
    acceptsName: true,
    run: async ({ manage }, [id], { name }, io) => {
      const tenant = await manage.createTenant(id!, name);
      io.stdout.write(`Tenant ${tenant.id} created (name "${tenant.name}")\n`);
    },
  },
  'tenant set-admin-emails': {
    usage: 'tenant set-admin-emails <tenantId> <email,...>   ("" clears them)',
    arguments: 2,
    tenantFirst: true,
    acceptsName: false,
    run: async ({ manage }, [id, list], _options, io) => {
      const emails = list!.split(',').map((email) => email.trim()).filter(Boolean);
      await manage.setAdminEmails(id!, emails);
      io.stdout.write(`Tenant ${id} admin e-mail addresses: ${emails.length > 0 ? [...new Set(emails)].join(', ') : 'none'}\n`);
    },
  },
  'tenant set-ai-limit': {
    usage: 'tenant set-ai-limit <tenantId> <tokens|default>',
    arguments: 2,
    tenantFirst: true,
    acceptsName: false,
    run: async ({ manage }, [id, value], _options, io) => {
      const limit = value === 'default' ? null : Number(value);
      await manage.setAiTokenLimit(id!, limit);
      io.stdout.write(`Tenant ${id} monthly AI token limit: ${limit === null ? 'the service default (AI_TOKEN_LIMIT_MONTHLY)' : limit}\n`);
    },
  },
  'tenant ai-usage': {
    usage: 'tenant ai-usage <tenantId> [--month YYYY-MM]   (default: this month, UTC)',
    arguments: 1,
    tenantFirst: true,
    acceptsName: false,
    acceptsMonth: true,
    run: async ({ aiUsage }, [id], { month }, io) => {
      const report = await aiUsage.execute(id!, month);
      io.stdout.write(`Tenant ${id} AI tokens in ${report.month}: used ${report.used} of ${report.limit}, remaining ${report.remaining}\n`);
    },
  },
  'apikey create': {
    usage: 'apikey create <tenantId> [--name <name>]',
    arguments: 1,
    tenantFirst: true,
    acceptsName: true,
    run: async ({ manage }, [tenantId], { name }, io) => {
      const issued = await manage.issueKey(tenantId!, name);
      // The key alone on standard output, so `KEY=$(cms-admin apikey create acme)` works.
      io.stdout.write(`${issued.key}\n`);
      const { record } = issued;
      io.stderr.write(`API key ${record.id} (${apiKeyFingerprint(record)}, "${record.name}") created for tenant ${tenantId}. It is shown once: store it now.\n`);
    },
  },
  'apikey list': {
    usage: 'apikey list <tenantId>',
    arguments: 1,
    tenantFirst: true,
    acceptsName: false,
    run: async ({ manage }, [tenantId], _options, io) => {
      const keys = await manage.listKeys(tenantId!);
      if (keys.length === 0) {
        io.stdout.write(`Tenant ${tenantId} has no API keys\n`);
        return;
      }
      io.stdout.write(keys.map(describeKey).join('\n') + '\n');
    },
  },
  'apikey revoke': {
    usage: 'apikey revoke <keyId>',
    arguments: 1,
    tenantFirst: false,
    acceptsName: false,
    run: async ({ manage }, [keyId], _options, io) => {
      await manage.revokeKey(keyId!);
      io.stdout.write(`API key ${keyId!.toLowerCase()} revoked\n`);
    },
  },
};

export const ADMIN_USAGE = [
  'Usage: cms-admin <command>',
  '',
  ...Object.values(COMMANDS).map((command) => `  ${command.usage}`),
  ...Object.values(LOCAL_COMMANDS).map((command) => `  ${command.usage}`),
  '',
  'Works on the MongoDB named by MONGODB_URI (database from the URI, else MONGODB_DB, default cms).',
  '',
].join('\n');

/** Runs one command; resolves to the process exit code. A bad setting, a usage, domain or store failure is a message and a code; only a bug throws. */
export async function runAdmin(
  argv: readonly string[],
  env: Env,
  io: AdminIo,
  openStorage: OpenAdminStorage,
  clock: Clock = systemClock,
): Promise<number> {
  const line = argv.join(' ');
  const local = Object.hasOwn(LOCAL_COMMANDS, line) ? LOCAL_COMMANDS[line] : undefined; // not `constructor` & co.
  if (local) {
    local.run(io);
    return AdminExit.ok;
  }
  let parsed: { command: Command; args: string[]; options: CommandOptions } | 'help';
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    io.stderr.write(`cms-admin: ${(error as Error).message}\n\n${ADMIN_USAGE}`);
    return AdminExit.usage;
  }
  if (parsed === 'help') {
    io.stdout.write(ADMIN_USAGE);
    return AdminExit.ok;
  }
  let storage: StorageConfig;
  try {
    storage = loadStorageConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`cms-admin: ${error.message}\n`);
    return AdminExit.usage;
  }
  if (storage.kind !== 'mongo') {
    io.stderr.write(
      'cms-admin: MONGODB_URI is not set. cms-admin works on MongoDB only: the embedded in-memory store lives inside a ' +
        'running service and cannot be changed from outside (give it keys with CMS_API_KEYS instead).\n',
    );
    return AdminExit.usage;
  }
  let opened: AdminStorage | undefined;
  try {
    opened = await openStorage({ uri: storage.uri, database: storage.database });
    const { aiUsage, tenants } = opened;
    const tools: AdminTools = {
      manage: new ManageTenants(opened.tenants, opened.apiKeys, clock),
      // Read by the command that reports usage only (decision 0103: an unrelated bad setting does not block administration).
      get aiUsage() {
        const defaultMonthlyTokenLimit = new EnvReader(env).int('AI_TOKEN_LIMIT_MONTHLY', DEFAULT_AI_TOKEN_LIMIT_MONTHLY, 0, Number.MAX_SAFE_INTEGER);
        return new GetAiUsage(aiUsage, tenants, { defaultMonthlyTokenLimit }, clock);
      },
    };
    await parsed.command.run(tools, parsed.args, parsed.options, io);
    return AdminExit.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`cms-admin: ${error.message}\n\n${ADMIN_USAGE}`);
      return AdminExit.usage;
    }
    if (error instanceof ConfigError) {
      io.stderr.write(`cms-admin: ${error.message}\n`);
      return AdminExit.usage;
    }
    io.stderr.write(`cms-admin: ${isDomainError(error) ? error.message : `failed: ${(error as Error).message}`}\n`);
    // An argument the use case refused (a name, an address) is wrong usage; a tenant it did not find is a failure.
    return isDomainError(error) && error.code === ErrorCodes.VALIDATION_FAILED ? AdminExit.usage : AdminExit.failed;
  } finally {
    await opened?.close().catch(() => {});
  }
}

function parseCommandLine(argv: readonly string[]): { command: Command; args: string[]; options: CommandOptions } | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { name: { type: 'string' }, month: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help || positionals[0] === 'help') return 'help';
  if (positionals.length === 0) throw new UsageError('no command given');
  const key = positionals.slice(0, 2).join(' ');
  const command = Object.hasOwn(COMMANDS, key) ? COMMANDS[key] : undefined; // not `constructor` & co.
  if (!command) throw new UsageError(`unknown command "${key}"`);
  const args = positionals.slice(2);
  if (args.length !== command.arguments) throw new UsageError(`expected: cms-admin ${command.usage}`);
  if (values.name !== undefined && !command.acceptsName) throw new UsageError(`--name does not apply to "${key}"`);
  if (values.month !== undefined && !command.acceptsMonth) throw new UsageError(`--month does not apply to "${key}"`);
  // What can be told wrong without the store is, before it is opened.
  if (command.tenantFirst) usageOf(() => requireTenantId(args[0]));
  if (values.month !== undefined && !USAGE_MONTH_PATTERN.test(values.month)) throw new UsageError('--month must be a month such as 2026-01');
  if (key === 'tenant set-ai-limit' && args[1] !== 'default' && !(/^\d+$/.test(args[1]!) && Number.isSafeInteger(Number(args[1])))) {
    throw new UsageError(`the limit must be a whole number of tokens from 0 to ${Number.MAX_SAFE_INTEGER}, or "default"`);
  }
  return { command, args, options: { name: values.name, month: values.month } };
}

/** Runs a core check of an argument; its refusal is a usage error in the same words. */
function usageOf(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (isDomainError(error)) throw new UsageError(error.message);
    throw error;
  }
}

function describeKey(key: ApiKey): string {
  const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active';
  return `${key.id}  ${apiKeyFingerprint(key)}  created ${key.createdAt.toISOString()}  ${state}  ${key.name}`;
}
