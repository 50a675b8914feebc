/**
 * Sandbox controls shared by the non-Pix checkout sections: a clearly marked "Simulate payment"
 * button posting `{method}` to `{page}/pay`, and the one small script (CSP nonce) that drives
 * every `[data-sandbox-pay]` button and the card form (`[data-card-form]` -> `{page}/card`).
 */
import { escapeHtml, type CheckoutContext } from "./sections";

/** The marked sandbox box with a simulate button for `method` (empty in live mode). */
export function sandboxPayBox(ctx: CheckoutContext, method: string): string {
  if (!ctx.sandbox) return "";
  return `<div class="sandbox" role="note">
<p><strong>SANDBOX</strong> — modo de teste: nenhum dinheiro real é movimentado.</p>
<button type="button" class="secondary" data-sandbox-pay="${escapeHtml(method)}" data-url="${escapeHtml(ctx.pageUrl)}/pay">Simulate payment (${escapeHtml(method)})</button>
<p class="error" role="alert" data-sandbox-error hidden></p>
</div>${sandboxScript(ctx)}`;
}

/** The controls script; emitted by each section that needs it, runs once per page. */
export function sandboxScript(ctx: CheckoutContext): string {
  return `<script nonce="${escapeHtml(ctx.nonce)}">(function(){if(window.__cofreSandbox)return;window.__cofreSandbox=1;
function post(url,body,btn,err){btn.disabled=true;fetch(url,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify(body)}).then(function(r){return r.json().then(function(b){if(!r.ok){throw new Error(b&&b.error&&b.error.message||"Falha");}location.reload();});}).catch(function(e){if(err){err.hidden=false;err.textContent=e.message;}btn.disabled=false;});}
document.addEventListener("DOMContentLoaded",function(){
document.querySelectorAll("[data-sandbox-pay]").forEach(function(b){b.addEventListener("click",function(){post(b.getAttribute("data-url"),{method:b.getAttribute("data-sandbox-pay")},b,b.parentNode.querySelector("[data-sandbox-error]"));});});
document.querySelectorAll("[data-card-form]").forEach(function(f){f.addEventListener("submit",function(ev){ev.preventDefault();var body={number:f.number.value.replace(/\\s+/g,"")};if(f.expiry.value)body.expiry=f.expiry.value;if(f.cvc.value)body.cvc=f.cvc.value;if(f.holder.value)body.name=f.holder.value;post(f.getAttribute("data-url"),body,f.querySelector("button"),f.querySelector("[data-sandbox-error]"));});});
});})();</script>`;
}
