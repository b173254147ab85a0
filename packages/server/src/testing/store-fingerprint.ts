/**
 * A fingerprint of everything the embedded store holds, for "a rejected request changes no
 * stored data". It finds the store without any hook in production code: every port token that
 * core exports (`…Token`, STYLE: one token per port) and that the container binds is resolved,
 * and the bound objects' state, private `#fields` included, is read through an in-process
 * inspector session (the only way to see private fields from outside a class) and serialised.
 * A port a colleague adds under the same convention is covered with no edit here.
 *
 * Some state is meant to change on a rejected request; its token is listed in
 * EXPECTED_TO_CHANGE with the reason, and left out of the fingerprint.
 */
import { Session } from 'node:inspector/promises';
import type { Runtime } from 'node:inspector';
import * as core from '@cms/core';
import type { MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import type { Container } from 'inversify';

/** Token descriptions whose state may change on a rejected request, each with its reason. */
export const EXPECTED_TO_CHANGE: ReadonlyArray<{ readonly pattern: RegExp; readonly reason: string }> = [
  {
    pattern: /rate-?limit/i,
    reason: 'CONTRACT §1: every guest write past the CAPTCHA and guest-id checks counts, even one that is then refused',
  },
];

const REGISTRY = Symbol.for('cms/testing/store-fingerprint');

export interface StoreFingerprint {
  /** The names of the ports whose state is in the fingerprint. */
  readonly ports: readonly string[];
  /** A canonical text of all their state: equal texts, equal stores. */
  take(): Promise<string>;
  dispose(): void;
}

export async function storeFingerprint(container: Container): Promise<StoreFingerprint> {
  const bound: Array<{ name: string; instance: object }> = [];
  for (const [name, token] of Object.entries(core)) {
    if (!name.endsWith('Token') || typeof token !== 'symbol') continue;
    if (EXPECTED_TO_CHANGE.some(({ pattern }) => pattern.test(token.description ?? name))) continue;
    if (!container.isBound(token)) continue;
    const instance: unknown = await container.getAsync(token);
    if (instance && typeof instance === 'object') bound.push({ name, instance });
  }
  (globalThis as Record<symbol, unknown>)[REGISTRY] = bound.map(({ instance }) => instance);
  const session = new Session();
  session.connect();

  return {
    ports: bound.map(({ name }) => name),
    async take() {
      const group = 'store-fingerprint';
      try {
        const { result: list } = await session.post('Runtime.evaluate', { expression: `globalThis[Symbol.for('cms/testing/store-fingerprint')]`, objectGroup: group });
        const { result: items } = await session.post('Runtime.getProperties', { objectId: list.objectId!, ownProperties: true });
        const states: string[] = [];
        for (const item of items.filter((p) => /^\d+$/.test(p.name))) {
          const props = (await session.post('Runtime.getProperties', { objectId: item.value!.objectId!, ownProperties: true })) as Runtime.GetPropertiesReturnType & {
            privateProperties?: Runtime.PropertyDescriptor[];
          };
          const fields = [...props.result.filter((p) => p.enumerable), ...(props.privateProperties ?? [])]
            .filter((p) => p.value && p.value.type !== 'function')
            .sort((a, b) => a.name.localeCompare(b.name));
          const { result } = await session.post('Runtime.callFunctionOn', {
            objectId: list.objectId!,
            functionDeclaration: SERIALISE,
            arguments: [{ value: fields.map((f) => f.name) }, ...fields.map((f) => argumentOf(f.value!))],
            returnByValue: true,
            objectGroup: group,
          });
          states.push(`${item.name}:${result.value as string}`);
        }
        return states.join('\n');
      } finally {
        await session.post('Runtime.releaseObjectGroup', { objectGroup: group });
      }
    },
    dispose() {
      session.disconnect();
      delete (globalThis as Record<symbol, unknown>)[REGISTRY];
    },
  };
}

/**
 * The same fingerprint for the MongoDB repositories over the collection double: every document of
 * every collection, which is all they store. Collections appear when a repository first asks for
 * one, so each take lists them anew and leaves out the empty ones. The guest write counters are
 * left out, for the reason EXPECTED_TO_CHANGE gives for the embedded store's rate limiter.
 */
export function databaseFingerprint(database: MingoDatabaseDouble): StoreFingerprint {
  const stored = () => database.collectionNames().filter((name) => !EXPECTED_TO_CHANGE_COLLECTIONS.includes(name)).sort();
  return {
    ports: stored(),
    async take() {
      const collections = stored()
        .map((name) => [name, database.collectionDouble(name).documents()] as const)
        .filter(([, documents]) => documents.length > 0);
      return JSON.stringify(collections);
    },
    dispose() {},
  };
}

/** Collections whose documents may change on a refused request (see EXPECTED_TO_CHANGE). */
const EXPECTED_TO_CHANGE_COLLECTIONS: readonly string[] = ['guest_rate_windows'];

/** A remote object as a call argument: by reference, or by value for primitives. */
function argumentOf(value: Runtime.RemoteObject): Runtime.CallArgument {
  if (value.objectId) return { objectId: value.objectId };
  if (value.unserializableValue) return { unserializableValue: value.unserializableValue };
  return { value: value.value };
}

/** Runs inside V8 on the real objects: a canonical text of plain data, Maps, Sets and Dates. */
const SERIALISE = `function (names, ...values) {
  const ancestors = new Set();
  const walk = (v) => {
    if (v === undefined) return '~undefined';
    if (typeof v === 'bigint') return v + 'n';
    if (typeof v === 'function' || typeof v === 'symbol') return '~' + typeof v;
    if (v === null || typeof v !== 'object') return v;
    if (ancestors.has(v)) return '~cycle';
    ancestors.add(v);
    let out;
    if (v instanceof Date) out = { $date: isNaN(v) ? 'invalid' : v.toISOString() };
    else if (v instanceof Map) out = { $map: [...v].map(([k, x]) => [walk(k), walk(x)]) };
    else if (v instanceof Set) out = { $set: [...v].map(walk) };
    else if (ArrayBuffer.isView(v)) out = { $bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
    else if (Array.isArray(v)) out = v.map(walk);
    else out = Object.fromEntries(Object.keys(v).map((k) => [k, walk(v[k])]));
    ancestors.delete(v);
    return out;
  };
  return JSON.stringify(names.map((name, i) => [name, walk(values[i])]));
}`;
