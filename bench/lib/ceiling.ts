/** Reference ceiling for `bench/run.ts`: a bare `Bun.serve` JSON endpoint. Usage: `bun bench/lib/ceiling.ts <port>`. */
Bun.serve({ hostname: "127.0.0.1", port: Number(process.argv[2]), fetch: () => Response.json({ status: "ok" }) });
