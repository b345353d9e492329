/**
 * A Map with a size bound and a time to live per entry: the oldest entries go first when full,
 * an expired entry is never returned. Used for memos that are re-checked against the database
 * before they decide anything (service.ts), so the TTL only bounds memory and age.
 */
export class TtlCache<K, V> {
  private entries = new Map<K, { value: V; expires: number }>();
  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
    private now: () => number = Date.now,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Map keeps insertion order: drop expired entries first, then the oldest.
      const now = this.now();
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
      while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    }
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
