/**
 * `cofre psp-sim` command line:
 *   cofre psp-sim init DIR [--port 8443] [--host 127.0.0.1] [--name DNS]... [--cofre-url URL] [--account ID]
 *   cofre psp-sim [--dir DIR] [--port N] [--host H] [--exchange-log FILE] [--auto-settle]
 *                 [--callback-ca PEMFILE]... [--token-ttl SECONDS]
 *                 [--send-results bands|settle|manual] [--balance REAIS]
 * `init` writes the folder and prints the operator command; the second form runs the simulator
 * until SIGINT/SIGTERM. Exit codes: 0 done, 1 failure, 2 usage error; -1 = keep running.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startPspSim } from "./server";
import { DEFAULT_PORT, initSimDir } from "./setup";
import { SEND_RESULTS, type SendResults } from "./efi";
import { parseValor } from "./format";

export const PSP_SIM_USAGE = `usage:
  cofre psp-sim init DIR [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--name DNS]... [--cofre-url URL] [--account ID]
  cofre psp-sim [--dir DIR] [--port N] [--host H] [--exchange-log FILE] [--auto-settle]
                [--callback-ca PEMFILE]... [--token-ttl SECONDS]
                [--send-results bands|settle|manual] [--balance REAIS]
The standard API Pix is served under /api/v2 (type bcb_pix_v2, pix-provider.json) and, with Efí's
send routes (/v3/gn/pix/{idEnvio}, /v2/gn/pix/enviados/...), under /v2 (type efi, api_url = the
origin, pix-provider-efi.json). Efí sends end by --send-results: bands (default, Efí's homologation:
0.01-10.00 paid, 10.01-20.00 refused by callback, above 20.00 refused at the request), settle (all
paid) or manual (POST /_sim/sends/{idEnvio}/settle|fail); --balance sets each client's starting
balance (default 1000000.00).
`;

function usage(message: string): number {
  process.stderr.write(`cofre psp-sim: ${message}\n\n${PSP_SIM_USAGE}`);
  return 2;
}

function port(text: string | undefined, allowZero: boolean): number | undefined | null {
  if (text === undefined) return undefined;
  const n = Number(text);
  return /^\d{1,5}$/.test(text) && n <= 65535 && (allowZero || n > 0) ? n : null;
}

/** Runs `psp-sim` with its arguments; see the header for the forms. */
export async function pspSimCommand(args: string[]): Promise<number> {
  if (args[0] === "help" || args[0] === "--help" || args[0] === "-h") {
    process.stdout.write(PSP_SIM_USAGE);
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
          name: { type: "string", multiple: true },
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
    const result = await initSimDir(dir, {
      port: p,
      host: parsed.values.host,
      names: parsed.values.name,
      cofreUrl: parsed.values["cofre-url"],
      accountId: parsed.values.account,
    });
    process.stdout.write(
      [
        `psp-sim initialised in ${result.dir}`,
        `  client_id ${result.config.client_id}, pix_key ${result.config.pix_key}`,
        `  api_url   ${result.body.api_url}`,
        `  token_url ${result.body.token_url}`,
        "",
        `start it:   cofre psp-sim --dir ${result.dir}`,
        "connect an account (operator route; the body file holds the client secret and key, mode 0600):",
        result.command,
        `for Pix send (payouts, cashout refunds) connect it as Efí instead: --data @'${result.efiBodyFile}'`,
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
        "exchange-log": { type: "string" },
        "auto-settle": { type: "boolean" },
        "callback-ca": { type: "string", multiple: true },
        "token-ttl": { type: "string" },
        "send-results": { type: "string" },
        balance: { type: "string" },
      },
    });
  } catch (err) {
    return usage((err as Error).message);
  }
  const v = parsed.values;
  const p = port(v.port, true);
  if (p === null) return usage("--port must be 0-65535");
  const ttl = v["token-ttl"] === undefined ? undefined : Number(v["token-ttl"]);
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0))
    return usage("--token-ttl must be a positive number of seconds");
  const sendResults = v["send-results"];
  if (sendResults !== undefined && !SEND_RESULTS.includes(sendResults as SendResults))
    return usage(`--send-results must be one of ${SEND_RESULTS.join(", ")}`);
  const initialBalance = v.balance === undefined ? undefined : parseValor(v.balance);
  if (initialBalance === null) return usage('--balance must be an amount in reais like "5000.00"');
  let callbackCa: string[] | undefined;
  try {
    callbackCa = v["callback-ca"]?.map((f) => readFileSync(f, "utf8"));
  } catch (err) {
    return usage(`--callback-ca: ${(err as Error).message}`);
  }
  let sim;
  try {
    sim = await startPspSim({
      dir: v.dir ?? "psp-sim",
      port: p,
      hostname: v.host,
      exchangeLog: v["exchange-log"],
      autoSettle: v["auto-settle"] ?? false,
      callbackCa,
      tokenTtlSeconds: ttl,
      ...(sendResults !== undefined ? { sendResults: sendResults as SendResults } : {}),
      ...(initialBalance !== undefined ? { initialBalance } : {}),
    });
  } catch (err) {
    process.stderr.write(`cofre psp-sim: ${(err as Error).message}\n`);
    return (err as Error).message.includes("psp-sim init") ? 2 : 1;
  }
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.once(sig, () => void sim.stop().then(() => process.exit(0)));
  return -1;
}
