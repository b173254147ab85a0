/**
 * Checks the two settings a connection takes, the connection string and the database name, as
 * the driver and the server will, without connecting: a composition root can refuse a bad one
 * at start-up, naming its setting, instead of failing later with a bare driver error. No reason
 * returned here quotes the string's password or an option whose name says password.
 */
import { MongoClient, type WriteConcernSettings } from 'mongodb';

/** What MongoDB accepts as a database name (on every platform it runs on but Windows). */
export const MONGO_DATABASE_NAME_RULE = 'a MongoDB database name has 1 to 63 bytes and none of / \\ . " $, space or NUL';

const FORBIDDEN_IN_DATABASE_NAMES = new Set(['/', '\\', '.', '"', '$', ' ', '\0']);

/**
 * Why the driver refuses `uri`, or undefined when it accepts it. The parsing is the driver's own
 * (`new MongoClient` parses and checks every option, and opens nothing until `connect`). The
 * reason given is that of the string with its secrets masked, so it cannot quote them; when only
 * the masked string parses, the secrets are what is malformed. An empty entry in the host list
 * (`db1,/cms`, `,db1`) the driver takes, and fails on only when it connects ("Unable to parse
 * :27017 with URL"): it is refused here.
 */
export function mongoConnectionStringProblem(uri: string): string | undefined {
  if (driverRefusal(uri) === undefined) return undefined;
  return driverRefusal(maskedMongoUri(uri)) ?? 'its user name or password cannot be read (percent-encode any @ : / ? # % in them)';
}

/** Why MongoDB would refuse `name` as a database name (`is empty`, `contains '.'`), or undefined. */
export function mongoDatabaseNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > 63) return `is ${bytes} bytes long`;
  const forbidden = [...name].find((character) => FORBIDDEN_IN_DATABASE_NAMES.has(character));
  if (forbidden === undefined) return undefined;
  return `contains ${forbidden === ' ' ? 'a space' : forbidden === '\0' ? 'NUL' : `'${forbidden}'`}`;
}

/**
 * How long a write waits for a majority of the replica set to have it before it fails, unless the
 * connection string sets `wtimeoutMS`. Without a bound, a write on a replica set whose majority
 * cannot be reached while its primary stays up (a primary, secondary and arbiter with the
 * secondary down) would wait for ever, and so would its request.
 */
export const MAJORITY_WAIT_MS = 10_000;

/**
 * The write concern of the service's client: what the connection string names (`w`, `wtimeoutMS`,
 * `journal`), member by member, and for what it does not name, `w: 'majority'` within
 * `MAJORITY_WAIT_MS`. An answer that says a write succeeded then holds across a failover on every
 * server version: the server's own default is `w: 1` before MongoDB 5.0 and on a set with an
 * arbiter, and a write a majority did not have is rolled back when its primary is replaced
 * (docs/decisions/0839-writes-acknowledged-by-a-majority.md). `uri` must be one the driver accepts.
 */
export function serviceWriteConcern(uri: string): WriteConcernSettings {
  const named = new MongoClient(uri).writeConcern;
  return {
    w: named?.w ?? 'majority',
    wtimeoutMS: named?.wtimeoutMS ?? MAJORITY_WAIT_MS,
    ...(named?.journal === undefined ? {} : { journal: named.journal }),
  };
}

/**
 * Why the service refuses the write concern `uri` names, or undefined. `w=0` asks for writes no
 * server acknowledges: the service would answer that a write succeeded before anything had it,
 * and could not tell a refused one (a taken slug: the unique index's duplicate key error) from
 * one that landed. `uri` must be one the driver accepts.
 */
export function mongoWriteConcernProblem(uri: string): string | undefined {
  return new MongoClient(uri).writeConcern?.w === 0 ? 'sets w=0 (writes nobody acknowledges)' : undefined;
}

function driverRefusal(uri: string): string | undefined {
  let client: MongoClient;
  try {
    client = new MongoClient(uri);
  } catch (error) {
    return (error as Error).message;
  }
  // A Unix socket's entry has a path and no host name; any other entry needs its host name.
  const empty = client.options.hosts.some((host) => host.socketPath === undefined && !host.host);
  return empty ? 'its host list has an empty entry (a comma with no host before or after it)' : undefined;
}

/**
 * `uri` with its password and every `…password=` option value replaced by `****`, fit to be shown.
 * The password is taken to run to the last `@` (one with an unescaped `@` still disappears whole);
 * with an `@` in the options more is masked than needed, never less.
 */
export function maskedMongoUri(uri: string): string {
  const scheme = /^[^:/?#@]*:\/\//.exec(uri)?.[0] ?? '';
  const at = uri.lastIndexOf('@');
  const userInfo = uri.slice(scheme.length, Math.max(at, scheme.length));
  const colon = userInfo.indexOf(':');
  const withoutPassword = colon < 0 ? uri : `${scheme}${userInfo.slice(0, colon)}:****${uri.slice(at)}`;
  return withoutPassword.replace(/([?&][^=&]*password=)[^&]*/gi, '$1****');
}
