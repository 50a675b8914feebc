/**
 * The hosted checkout page (extensions.md "Public pages"): amount, merchant, the sections of every
 * method the transaction offers while it awaits payment, and a final screen (paid, expired, failed,
 * cancelled, refunded, processing, disputed). Self-contained HTML: inline CSS and one inline
 * script (CSP nonce), no external assets. The status refreshes itself by polling `{page}/status`.
 */
import { PUBLIC_STATUS, type PaymentMethod, type TransactionStatus } from "../../domain/charges/model";
import "./methods";
import { checkoutSectionFor, escapeHtml, formatMoney, type CheckoutContext } from "./sections";

const FINAL_SCREENS: Record<string, { title: string; text: string; icon: string }> = {
  paid: { title: "Pagamento confirmado", text: "Recebemos o seu pagamento. Obrigado!", icon: "✓" },
  expired: { title: "Cobrança expirada", text: "O prazo para pagamento terminou. Peça uma nova cobrança ao vendedor.", icon: "⌛" },
  failed: { title: "Pagamento não concluído", text: "Não foi possível processar esta cobrança. Peça uma nova cobrança ao vendedor.", icon: "✕" },
  cancelled: { title: "Cobrança cancelada", text: "Esta cobrança foi cancelada pelo vendedor.", icon: "✕" },
  refunded: { title: "Pagamento devolvido", text: "O valor foi devolvido ao pagador.", icon: "↺" },
  processing: { title: "Pagamento em análise", text: "Recebemos o pagamento e ele está em análise.", icon: "…" },
  disputed: { title: "Pagamento em disputa", text: "Este pagamento está em análise de disputa.", icon: "!" },
};

const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1b1f24}
main{max-width:28rem;margin:0 auto;padding:1rem}header{text-align:center;margin:1rem 0}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);text-align:center}
.merchant{font-size:1rem;color:#4a5561;margin:0}.amount{font-size:2rem;font-weight:700;margin:.25rem 0}
.qr{display:block;margin:1rem auto;max-width:100%;height:auto;image-rendering:pixelated;background:#fff}
textarea{width:100%;font:13px/1.4 ui-monospace,Menlo,Consolas,monospace;padding:.5rem;border:1px solid #aab4bf;border-radius:8px;resize:none;word-break:break-all}
button{font:inherit;font-weight:600;width:100%;min-height:44px;margin:.5rem 0;border:0;border-radius:8px;background:#0b6e4f;color:#fff;cursor:pointer}
button.secondary{background:#7a3e00}button:focus-visible,textarea:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}
button[disabled]{opacity:.6;cursor:progress}.hint{color:#4a5561;min-height:1.5em;margin:0}.error{color:#b00020}
.countdown{font-weight:600}.sandbox{margin-top:1rem;padding:.75rem;border:2px dashed #b35c00;border-radius:8px;background:#fff7ec}
.final .icon{font-size:3rem;line-height:1}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.badge{display:inline-block;background:#b35c00;color:#fff;border-radius:4px;padding:0 .4rem;font-size:.8rem;font-weight:700}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}`;

/** Client script: copy, countdown on the service clock, status polling, sandbox simulation. */
const SCRIPT = `(function(){
var root=document.getElementById("checkout");var statusUrl=root.getAttribute("data-status-url");var initial=root.getAttribute("data-status");
var copy=document.getElementById("copy");if(copy){copy.addEventListener("click",function(){var t=document.getElementById(copy.getAttribute("data-copy-target"));var s=document.getElementById("copy-status");
function done(){s.textContent="Código copiado!";}
if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(t.value).then(done,function(){t.select();document.execCommand("copy");done();});}else{t.select();document.execCommand("copy");done();}});}
var cd=document.getElementById("countdown");if(cd){var expires=Number(cd.getAttribute("data-expires"));var offset=Number(cd.getAttribute("data-now"))-Date.now();
function tick(){var left=Math.max(0,Math.floor((expires-(Date.now()+offset))/1000));var h=Math.floor(left/3600),m=Math.floor(left%3600/60),s=left%60;
cd.textContent=(h?h+":"+String(m).padStart(2,"0"):String(m))+":"+String(s).padStart(2,"0");if(left===0){cd.textContent="0:00";}}
tick();setInterval(tick,1000);}
var sim=document.getElementById("simulate");if(sim){sim.addEventListener("click",function(){sim.disabled=true;var err=document.getElementById("simulate-error");
fetch(sim.getAttribute("data-url"),{method:"POST",headers:{"content-type":"application/json"},body:"{}"}).then(function(r){return r.json().then(function(b){if(!r.ok){throw new Error(b&&b.error&&b.error.message||"Falha");}location.reload();});}).catch(function(e){err.hidden=false;err.textContent=e.message;sim.disabled=false;});});}
if(statusUrl){setInterval(function(){fetch(statusUrl,{cache:"no-store"}).then(function(r){return r.json();}).then(function(b){if(b&&b.status&&b.status!==initial){location.reload();}}).catch(function(){});},${"${POLL_MS}"});}
})();`;

/** Poll period of the status endpoint (ms). */
export const POLL_MS = 1500;

/** The complete checkout HTML for `ctx.row`. */
export function renderCheckoutPage(ctx: CheckoutContext): string {
  const { row } = ctx;
  const status = PUBLIC_STATUS[row.status as TransactionStatus] ?? "pending";
  let body: string;
  if (status === "pending") {
    const methods = JSON.parse(row.paymentMethods) as PaymentMethod[];
    const parts = methods.map((m) => checkoutSectionFor(m)?.render(ctx) ?? `<section class="method"><p>${escapeHtml(m)}: indisponível nesta página.</p></section>`);
    body = `<div class="pending" data-state="pending">${parts.join("\n")}</div>`;
  } else {
    const s = FINAL_SCREENS[status] ?? FINAL_SCREENS.failed!;
    body = `<div class="final" data-state="${escapeHtml(status)}" role="status"><p class="icon" aria-hidden="true">${s.icon}</p><h2>${escapeHtml(s.title)}</h2><p>${escapeHtml(s.text)}</p></div>`;
  }
  const sandboxBadge = ctx.sandbox ? ` <span class="badge">SANDBOX</span>` : "";
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(ctx.merchantName)} — Pagamento</title>
<style>${CSS}</style>
</head>
<body>
<main id="checkout" data-status="${escapeHtml(status)}" data-status-url="${status === "pending" || status === "processing" ? `${escapeHtml(ctx.pageUrl)}/status` : ""}">
<header>
<p class="merchant">${escapeHtml(ctx.merchantName)}${sandboxBadge}</p>
<h1 class="amount" aria-label="Valor: ${escapeHtml(formatMoney(row.amount, row.currency))}">${escapeHtml(formatMoney(row.amount, row.currency))}</h1>
</header>
<div class="card" aria-live="polite">
${body}
</div>
</main>
<script nonce="${escapeHtml(ctx.nonce)}">${SCRIPT.replace("${POLL_MS}", String(POLL_MS))}</script>
</body>
</html>`;
}

/** The 404 page of an unknown checkout id. */
export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Cobrança não encontrada</title><style>${CSS}</style></head>
<body><main><div class="card final" data-state="not_found" role="status"><h1>Cobrança não encontrada</h1><p>Confira o link recebido do vendedor.</p></div></main></body></html>`;
}
