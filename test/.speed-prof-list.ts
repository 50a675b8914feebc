import { createHarness } from "./support/harness";
const h = createHarness();
const a = await h.seedAccount();
for (let i = 0; i < 40; i++) {
  const r = await h.app.handle(new Request("http://localhost/v1/payments", { method: "POST", headers: { apikey: a.testKey, "content-type": "application/json" }, body: JSON.stringify({ amount: 100 + i, paymentMethods: ["PIX", "CREDIT_CARD"], customerName: "Fulano", idempotencyKey: `key-${i}-abcdefg` }) }));
  if (r.status !== 201) throw new Error(String(r.status) + (await r.text()));
}
const path = process.env.P ?? "/v1/payments?limit=20";
const one = async () => { const r = await h.app.handle(new Request("http://localhost" + path, { headers: { apikey: a.testKey } })); return (await r.text()).length; };
console.log("bytes", await one());
for (let i = 0; i < 200; i++) await one();
const N = Number(process.env.N ?? 2000);
const t0 = performance.now(); const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) await one();
const c = process.cpuUsage(c0);
console.log(path, "wall us/req", ((performance.now() - t0) * 1000 / N).toFixed(1), "cpu us/req", ((c.user + c.system) / N).toFixed(1));
{
  const body = await (await h.app.handle(new Request("http://localhost" + path, { headers: { apikey: a.testKey } }))).json() as any;
  const noQr = { ...body, data: body.data.map((d: any) => ({ ...d, pixQrCode: null })) };
  for (const [name, b] of [["with QR", body], ["QR null", noQr]] as const) {
    const s = JSON.stringify(b); let t0 = performance.now();
    for (let i = 0; i < 3000; i++) JSON.stringify(b);
    const st = (performance.now() - t0) * 1000 / 3000;
    t0 = performance.now();
    for (let i = 0; i < 3000; i++) await new Response(JSON.stringify(b)).arrayBuffer();
    console.log(name, "bytes", s.length, "stringify us", st.toFixed(1), "stringify+Response+read us", ((performance.now() - t0) * 1000 / 3000).toFixed(1));
  }
}
