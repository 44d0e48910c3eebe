/**
 * Whether a parsed JSON value nests objects or arrays more than `limit` levels deep (the value
 * itself, when it is an object or array, is level 1; scalars are level 0). The walk keeps its
 * own stack, so a value nested far deeper than the call stack allows is measured safely.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > limit) return true;
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        pending.push({ value: child, depth: next.depth + 1 });
      }
    }
  }
  return false;
}
