/**
 * At most `concurrency` tasks at once; the waiting ones are served one client at a time in turn
 * (round-robin), so a client with a thousand tasks in line delays another client's single task
 * by at most one task per other waiting client, instead of a thousand.
 */
export class FairQueue {
  private running = 0;
  private waiting = 0;
  /** Clients with waiting tasks, in the order they are served: a Map keeps insertion order. */
  private readonly lines = new Map<string, Array<() => void>>();

  constructor(readonly concurrency: number) {}

  run<T>(client: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.next();
          });
      };
      if (this.running < this.concurrency && this.waiting === 0) {
        start();
        return;
      }
      const line = this.lines.get(client);
      if (line) line.push(start);
      else this.lines.set(client, [start]);
      this.waiting++;
    });
  }

  private next() {
    const first = this.lines.entries().next();
    if (first.done) return;
    const [client, line] = first.value;
    const start = line.shift()!;
    // The client goes to the back of the turn, if it still has tasks waiting.
    this.lines.delete(client);
    if (line.length > 0) this.lines.set(client, line);
    this.waiting--;
    start();
  }

  get activeCount() {
    return this.running;
  }

  get pendingCount() {
    return this.waiting;
  }

  /**
   * How many waiting tasks a task of `client` added now would wait for: its own line, and from every
   * other line as many as the turns it takes to reach it.
   */
  tasksAheadOf(client: string): number {
    const own = this.pendingFor(client);
    let ahead = own;
    for (const [other, line] of this.lines) if (other !== client) ahead += Math.min(line.length, own + 1);
    return ahead;
  }

  /** Whether a task added now would start at once. */
  get idle() {
    return this.running < this.concurrency && this.waiting === 0;
  }

  /** Tasks waiting for `client`. */
  pendingFor(client: string) {
    return this.lines.get(client)?.length ?? 0;
  }
}
