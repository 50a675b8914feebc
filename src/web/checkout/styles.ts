/**
 * The checkout's one stylesheet (a static file, ./assets.ts; the markup has no style attributes,
 * so the CSP needs no 'unsafe-inline'). System fonts only; merchant and customer text wraps anywhere and is
 * bidi-isolated (`bdi`), so long or right-to-left text cannot break the layout.
 */
export const CHECKOUT_CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1b1f24}
main{max-width:28rem;margin:0 auto;padding:1rem}header{text-align:center;margin:1rem 0}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);text-align:center}
.merchant{font-size:1rem;color:#4a5561;margin:0}.merchant-id{font-size:.85rem;color:#4a5561;margin:0}.amount{font-size:2rem;font-weight:700;margin:.25rem 0}
.description,.customer{margin:.25rem 0;color:#1b1f24}.customer{color:#4a5561;font-size:.9rem}
.merchant,.description,.customer,bdi{overflow-wrap:anywhere;word-break:break-word}
.qr{display:block;margin:1rem auto;max-width:100%;height:auto;image-rendering:pixelated;background:#fff}
label{display:block;text-align:left;font-weight:600;margin-top:.5rem}
textarea{width:100%;font:13px/1.4 ui-monospace,Menlo,Consolas,monospace;padding:.5rem;border:1px solid #6b7682;border-radius:8px;resize:none;word-break:break-all}
input{width:100%;min-height:44px;font:inherit;padding:.25rem .5rem;border:1px solid #6b7682;border-radius:8px}
button{font:inherit;font-weight:600;width:100%;min-height:44px;margin:.5rem 0;border:0;border-radius:8px;background:#0b6e4f;color:#fff;cursor:pointer}
button.secondary{background:#7a3e00}button:focus-visible,textarea:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}
button[disabled]{opacity:.6;cursor:progress}a.button{display:flex;align-items:center;justify-content:center;min-height:44px;margin:.5rem 0;border-radius:8px;background:#0b6e4f;color:#fff;font-weight:600;text-decoration:none}.hint{color:#4a5561;min-height:1.5em;margin:0}.error{color:#b00020}
.method+.method{margin-top:1.5rem;padding-top:1rem;border-top:1px solid #d5dae0}
.facts{text-align:left}.facts dd{margin:0 0 .5rem 0;font-weight:600}
.countdown{font-weight:600;margin-bottom:0}.sandbox{margin-top:1rem;padding:.75rem;border:2px dashed #9a4f00;border-radius:8px;background:#fff7ec}
.final .icon{display:block;margin:0 auto;width:56px;height:56px}.final.good .icon{color:#0b6e4f}.final.bad .icon{color:#8a1c1c}
.visually-hidden,.offscreen{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.offscreen{left:-9999px}
.badge{display:inline-block;background:#8a4600;color:#fff;border-radius:4px;padding:0 .4rem;font-size:.8rem;font-weight:700}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}`;
