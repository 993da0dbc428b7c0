/**
 * Set an own, enumerable field on an extras object. Attribute names come off the wire, so a
 * name such as `__proto__` must become a plain field, never change the object's prototype.
 */
export function setField(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
