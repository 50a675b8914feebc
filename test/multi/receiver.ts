/** The webhook receiver of the multi-instance tests (test/multi/instances.test.ts). */

/** A webhook receiver on 127.0.0.1 that records what arrived (and refuses chosen first attempts). */
export class Receiver {
  /** Delivery ids (`X-Cofre-Delivery-Id`) that were answered 200. */
  readonly delivered = new Set<string>();
  /** Event ids (`id` of canonical and MED bodies) that were answered 200. */
  readonly events = new Set<string>();
  /** POSTs received, refused ones included. */
  posts = 0;
  /** Attempts answered 500 on purpose. */
  refused = 0;
  private seenOnce = new Set<string>();
  private server: ReturnType<typeof Bun.serve>;

  /**
   * `failFirst(deliveryId)`: answer 500 to the first attempt of that delivery (the retry then
   * succeeds). `delayMs` (may be changed any time): answer each POST that much later (deliveries
   * are then in flight, their jobs leased, at any moment of a load).
   */
  constructor(
    private readonly failFirst: (deliveryId: string) => boolean = () => false,
    public delayMs = 0,
  ) {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        const body = await req.text();
        this.posts++;
        if (this.delayMs) await Bun.sleep(this.delayMs);
        const id = req.headers.get("x-cofre-delivery-id") ?? "";
        if (id && !this.seenOnce.has(id) && this.failFirst(id)) {
          this.seenOnce.add(id);
          this.refused++;
          return new Response("try again", { status: 500 });
        }
        this.seenOnce.add(id);
        if (id) this.delivered.add(id);
        try {
          const p = JSON.parse(body) as { id?: unknown };
          if (typeof p.id === "string") this.events.add(p.id);
        } catch {}
        return new Response("ok");
      },
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}/hooks`;
  }

  stop(): void {
    this.server.stop(true);
  }
}
