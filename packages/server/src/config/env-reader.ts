/**
 * Reads environment variables once, at start-up. Every bad value stops start-up with a
 * ConfigError that names the variable and says what it must be.
 *
 * Unset and empty (`VAR=`, what compose writes for `${VAR:-}`) are the same: the setting is off
 * or takes its default. A value of whitespace only is refused, whatever the variable: no setting
 * has such a value, and reading it as unset would turn a secret that went missing in a template
 * into bearer tokens switched off, or a blank `MONGODB_URI` into the embedded store (decision 0802).
 */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    // One line, whatever a quoted value holds: a line break in it is written as \n, so it cannot
    // pass for a second message in the log.
    super(`${variable} ${problem}`.replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

export class EnvReader {
  constructor(private readonly env: Env) {}

  /** The trimmed value, or undefined when unset or empty; whitespace only is refused. */
  string(name: string): string | undefined {
    return this.raw(name)?.trim();
  }

  /** Like `string`, but keeps the value as given (PEM keys span lines). */
  raw(name: string): string | undefined {
    const value = this.env[name];
    if (value === undefined || value === '') return undefined;
    if (value.trim() === '') {
      throw new ConfigError(name, 'is only whitespace: give it a value, or set it empty (or unset it) to leave it unset');
    }
    return value;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const text = this.string(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!/^-?\d+$/.test(text) || value < min || value > max) {
      throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${text}")`);
    }
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const text = this.string(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(text)) {
      throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${text}")`);
    }
    return text as T;
  }

  flag(name: string, fallback: boolean): boolean {
    const text = this.string(name)?.toLowerCase();
    if (text === undefined) return fallback;
    if (['1', 'true', 'on', 'yes'].includes(text)) return true;
    if (['0', 'false', 'off', 'no'].includes(text)) return false;
    throw new ConfigError(name, `must be true or false (got "${text}")`);
  }

  list(name: string): string[] | undefined {
    const text = this.string(name);
    return text === undefined ? undefined : text.split(',').map((item) => item.trim()).filter(Boolean);
  }

  /** `1048576`, `512kb`, `1mb`. */
  bytes(name: string, fallback: number): number {
    const text = this.string(name)?.toLowerCase();
    if (text === undefined) return fallback;
    const match = /^(\d+)\s*(b|kb|mb)?$/.exec(text);
    if (!match) throw new ConfigError(name, `must be a size such as 1048576, 512kb or 1mb (got "${text}")`);
    const value = Number(match[1]) * (match[2] === 'mb' ? 1024 * 1024 : match[2] === 'kb' ? 1024 : 1);
    if (value < 1 || value > 64 * 1024 * 1024) throw new ConfigError(name, 'must be between 1 byte and 64mb');
    return value;
  }
}

/** One `left:right` entry of a comma list, numbered from 1 as written. */
export interface ColonPair {
  readonly entry: number;
  readonly left: string;
  readonly right: string;
}

/**
 * The `left:right` entries of a comma list (`CMS_API_KEYS`, `CMS_ADMIN_EMAILS`), each trimmed, an
 * empty entry (a trailing comma) skipped but counted; split at the `first` or the `last` colon.
 * An entry without a colon, or with nothing on its left, is refused with `notAPair(entry)`.
 */
export function colonPairs(value: string, split: 'first' | 'last', notAPair: (entry: number) => ConfigError): ColonPair[] {
  const pairs: ColonPair[] = [];
  value.split(',').forEach((item, index) => {
    const pair = item.trim();
    if (pair === '') return;
    const at = split === 'first' ? pair.indexOf(':') : pair.lastIndexOf(':');
    const left = pair.slice(0, at).trim();
    if (at < 0 || left === '') throw notAPair(index + 1);
    pairs.push({ entry: index + 1, left, right: pair.slice(at + 1).trim() });
  });
  return pairs;
}
