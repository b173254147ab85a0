/** Map key of a record scoped to a tenant, for the in-memory repositories (ids never contain NUL). */
export const tenantKey = (tenantId: string, id: string): string => `${tenantId}\u0000${id}`;
