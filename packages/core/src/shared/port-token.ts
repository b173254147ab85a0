/**
 * Injection tokens for ports. A token is a registered symbol (`Symbol.for('cms/<Port>')`), so
 * two copies of this package agree on it; its type parameter records which port it names.
 */
declare const portType: unique symbol;

export type PortToken<T> = symbol & { readonly [portType]?: T };

export function portToken<T>(portName: string): PortToken<T> {
  return Symbol.for(`cms/${portName}`) as PortToken<T>;
}
