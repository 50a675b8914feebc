/**
 * The checkout's one client script (a static file, ./assets.ts; ES5, no dependencies): copy buttons
 * (`[data-copy]` / `[data-copy-text]`), the countdown on the service clock (`#countdown`), the
 * status poll (`data-status-url`, every POLL_MS; reloads when the status changes), the sandbox
 * buttons (`[data-sandbox-pay]`: POST `data-body` to `data-url`) and the sandbox card form.
 * Every URL it fetches is relative to the page (./links.ts). Messages are pt-BR.
 */

/** Poll period of the status endpoint (ms). */
const POLL_MS = 1500;

export const CHECKOUT_SCRIPT = `(function(){
var root=document.getElementById("checkout");var statusUrl=root.getAttribute("data-status-url");var initial=root.getAttribute("data-status");
function fallbackCopy(text){var t=document.createElement("textarea");t.value=text;t.setAttribute("readonly","");t.className="offscreen";document.body.appendChild(t);t.select();var ok=false;try{ok=document.execCommand("copy");}catch(e){}document.body.removeChild(t);return ok;}
document.querySelectorAll("[data-copy],[data-copy-text]").forEach(function(b){b.addEventListener("click",function(){
var target=b.getAttribute("data-copy");var text=b.getAttribute("data-copy-text");if(text===null){text=document.getElementById(target).value;}
var s=b.parentNode.querySelector("[data-copy-status]");
function done(){if(s){s.textContent=b.getAttribute("data-copy-done");}}
function failed(){if(target){document.getElementById(target).select();}if(s){s.textContent="Não foi possível copiar: selecione o texto e copie manualmente.";}}
if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(text).then(done,function(){if(fallbackCopy(text)){done();}else{failed();}});}else if(fallbackCopy(text)){done();}else{failed();}});});
var cd=document.getElementById("countdown");if(cd){var expires=Number(cd.getAttribute("data-expires"));var offset=Number(cd.getAttribute("data-now"))-Date.now();
function tick(){var left=Math.max(0,Math.floor((expires-(Date.now()+offset))/1000));var h=Math.floor(left/3600),m=Math.floor(left%3600/60),s=left%60;
cd.textContent=(h?h+":"+String(m).padStart(2,"0"):String(m))+":"+String(s).padStart(2,"0");}
tick();setInterval(tick,1000);}
function post(url,body,btn,err,invalid){btn.disabled=true;if(err){err.hidden=true;}
fetch(url,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify(body)}).then(function(r){if(!r.ok){throw new Error(r.status===400&&invalid?invalid:"Não foi possível concluir o pagamento de teste. Atualize a página e tente de novo.");}location.reload();})
.catch(function(e){if(err){err.hidden=false;err.textContent=e instanceof TypeError?"Sem conexão com o servidor. Verifique a internet e tente de novo.":e.message;}btn.disabled=false;});}
document.querySelectorAll("[data-sandbox-pay]").forEach(function(b){b.addEventListener("click",function(){post(b.getAttribute("data-url"),JSON.parse(b.getAttribute("data-body")||"{}"),b,b.parentNode.querySelector("[data-sandbox-error]"));});});
document.querySelectorAll("[data-card-form]").forEach(function(f){f.addEventListener("submit",function(ev){ev.preventDefault();var body={number:f.number.value.replace(/\\s+/g,"")};if(f.expiry.value)body.expiry=f.expiry.value;if(f.cvc.value)body.cvc=f.cvc.value;if(f.holder.value)body.name=f.holder.value;
post(f.getAttribute("data-url"),body,f.querySelector("button"),f.querySelector("[data-sandbox-error]"),"Confira os dados do cartão.");});});
if(statusUrl){setInterval(function(){fetch(statusUrl,{cache:"no-store"}).then(function(r){return r.json();}).then(function(b){if(b&&b.status&&b.status!==initial){location.reload();}}).catch(function(){});},${POLL_MS});}
})();`;
