/**
 * `cofre stripe-sim` command line:
 *   cofre stripe-sim init DIR [--port 12111] [--host 127.0.0.1] [--cofre-url URL] [--account ID]
 *   cofre stripe-sim [--dir DIR] [--port N] [--host H] [--retry-ms 60000,300000,...]
 *                    [--refund-delay-ms N|manual] [--dispute-delay-ms N|manual]
 * `init` writes the folder and prints the operator command; the second form runs the simulator
 * until SIGINT/SIGTERM (creating the folder and a test account when new). Exit codes: 0 done,
 * 1 failure, 2 usage error; -1 = keep running.
 */
import { parseArgs } from "node:util";
import { startStripeSim } from "./server";
import { DEFAULT_PORT, initSimDir } from "./setup";

export const STRIPE_SIM_USAGE = `usage:
  cofre stripe-sim init DIR [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--cofre-url URL] [--account ID]
  cofre stripe-sim [--dir DIR] [--port N] [--host H] [--retry-ms MS,MS,...]
                   [--refund-delay-ms N|manual] [--dispute-delay-ms N|manual]
A stateful simulator of the part of Stripe's API Cofre calls (src/stripe-sim/ROUTES.md), over plain
HTTP: Checkout Sessions with a hosted card page (4242 4242 4242 4242 pays, 4000 0000 0000 0002 is
declined, 4000 0000 0000 0259 pays and is disputed, 4000 0027 6000 3184 asks for 3-D Secure), boleto
PaymentIntents, refunds, disputes, webhook endpoints and signed events with retries, and control
routes under /_sim (pay a boleto, close a dispute, fail a refund, drop or delay events).
init writes DIR/card-provider.json ({type: "stripe", secret_key, api_base}) for the operator route.
`;

function usage(message: string): number {
  process.stderr.write(`cofre stripe-sim: ${message}\n\n${STRIPE_SIM_USAGE}`);
  return 2;
}

function port(text: string | undefined, allowZero: boolean): number | undefined | null {
  if (text === undefined) return undefined;
  const n = Number(text);
  return /^\d{1,5}$/.test(text) && n <= 65535 && (allowZero || n > 0) ? n : null;
}

function delay(text: string | undefined): number | null | undefined | false {
  if (text === undefined) return undefined;
  if (text === "manual") return null;
  return /^\d{1,9}$/.test(text) ? Number(text) : false;
}

/** Runs `stripe-sim` with its arguments; see the header for the forms. */
export async function stripeSimCommand(args: string[]): Promise<number> {
  if (args[0] === "help" || args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(STRIPE_SIM_USAGE);
    return 0;
  }
  if (args[0] === "init") {
    let parsed;
    try {
      parsed = parseArgs({
        args: args.slice(1),
        allowPositionals: true,
        options: {
          port: { type: "string" },
          host: { type: "string" },
          "cofre-url": { type: "string" },
          account: { type: "string" },
        },
      });
    } catch (err) {
      return usage((err as Error).message);
    }
    const [dir, ...extra] = parsed.positionals;
    if (!dir || extra.length) return usage("init takes exactly one folder");
    const p = port(parsed.values.port, false);
    if (p === null) return usage("--port must be 1-65535");
    const r = initSimDir(dir, {
      port: p,
      host: parsed.values.host,
      cofreUrl: parsed.values["cofre-url"],
      accountId: parsed.values.account,
    });
    process.stdout.write(
      [
        `stripe-sim initialised in ${r.dir}`,
        `  api_base   ${r.body.api_base}`,
        `  secret_key in ${r.bodyFile} (mode 0600)`,
        "",
        `start it:   cofre stripe-sim --dir ${r.dir}`,
        "connect an account (operator route):",
        r.command,
        "",
      ].join("\n"),
    );
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        dir: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "retry-ms": { type: "string" },
        "refund-delay-ms": { type: "string" },
        "dispute-delay-ms": { type: "string" },
      },
    });
  } catch (err) {
    return usage((err as Error).message);
  }
  const v = parsed.values;
  const p = port(v.port, true);
  if (p === null) return usage("--port must be 0-65535");
  let retrySchedule: number[] | undefined;
  if (v["retry-ms"] !== undefined) {
    retrySchedule = v["retry-ms"] === "" ? [] : v["retry-ms"].split(",").map(Number);
    if (retrySchedule.some((n) => !Number.isInteger(n) || n < 0))
      return usage("--retry-ms takes comma-separated milliseconds");
  }
  const refund = delay(v["refund-delay-ms"]);
  const dispute = delay(v["dispute-delay-ms"]);
  if (refund === false) return usage("--refund-delay-ms takes milliseconds or manual");
  if (dispute === false) return usage("--dispute-delay-ms takes milliseconds or manual");
  let sim;
  try {
    sim = await startStripeSim({
      dir: v.dir ?? "stripe-sim",
      port: p,
      hostname: v.host,
      retrySchedule,
      settings: {
        ...(refund !== undefined ? { refund_delay_ms: refund } : {}),
        ...(dispute !== undefined ? { dispute_delay_ms: dispute } : {}),
      },
    });
  } catch (err) {
    process.stderr.write(`cofre stripe-sim: ${(err as Error).message}\n`);
    return 1;
  }
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => void sim.stop().then(() => process.exit(0)));
  return -1;
}
