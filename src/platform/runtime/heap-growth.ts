import v8 from 'node:v8';

/**
 * Bounds how far V8 lets the heap grow past its live data before a full collection. Left to
 * itself, V8 grows the old generation to about four times what is live while requests allocate
 * fast (Trove's ~60 MB of live data became ~210 MB of heap under 32 concurrent list requests);
 * at 50 % the heap stays near 120 MB with no measurable loss of throughput. The limit follows
 * the live data, so a large import or export still gets all the memory it needs.
 * V8 reads the setting at every collection, so it takes effect when set at start-up.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
