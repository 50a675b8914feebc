/**
 * MED evidence in three steps over real HTTP (a listening server on 127.0.0.1, port 0, with
 * publicUrl pointing at it): request the URL, PUT the bytes, complete. Covers expiry (clock
 * advanced), size mismatch, wrong type, forbidden auth headers, signed view links, 503 storage.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { SeededAccount } from "../support/harness";
import { medHarness, openMed, paidCharge, seedMerchant, type MedHarness } from "./fixtures";

let h: MedHarness;
let a: SeededAccount;
let other: SeededAccount;
let base: string;

beforeAll(async () => {
  h = medHarness();
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  base = `http://127.0.0.1:${h.app.server!.port}`;
  h.deps.config.publicUrl = base;
  a = await seedMerchant(h);
  other = await seedMerchant(h);
});

afterAll(async () => {
  await h.app.stop();
  rmSync(h.storageDir, { recursive: true, force: true });
});

const UPLOAD_KEYS = ["expires_in", "id", "object", "upload_headers", "upload_method", "upload_url"];
const EVIDENCE_KEYS = [
  "created_at",
  "file_name",
  "file_size",
  "id",
  "mime_type",
  "object",
  "uploaded_at",
  "uploaded_by",
  "view_url",
];

/** A call to the listening server with the account's test key. */
async function api(method: string, path: string, body?: unknown, key = a.testKey) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { apikey: key, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, body: json, headers: res.headers };
}

function pdfBytes(n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  const head = new TextEncoder().encode("%PDF-1.4\n");
  for (let i = 0; i < n; i++) b[i] = i < head.length ? head[i]! : (i * 31) % 251;
  return b;
}

/** PUT to an upload URL; `headers` replace the upload_headers when given. */
async function put(url: string, bytes: Uint8Array<ArrayBuffer>, headers: Record<string, string>) {
  const res = await fetch(url, { method: "PUT", headers, body: bytes });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, body: json };
}

async function newCase() {
  const c = await paidCharge(h, a, 5_000);
  return openMed(h, a, c);
}

async function requestUpload(caseId: string, file: { file_name?: string; file_size: number; mime_type?: string }) {
  const res = await api("POST", `/v1/med/cases/${caseId}/evidence`, {
    file_name: "receipt.pdf",
    mime_type: "application/pdf",
    ...file,
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("the three steps", () => {
  test("request, PUT with the given headers, complete: confirmed, counted, listed, viewable", async () => {
    const kase = await newCase();
    const bytes = pdfBytes(2048);
    const up = await requestUpload(kase.id, { file_size: 2048 });
    expect(Object.keys(up).sort()).toEqual(UPLOAD_KEYS);
    expect(up.id).toMatch(/^ev_[0-9a-f]{32}$/);
    expect(up).toMatchObject({
      object: "med_case_evidence_upload",
      upload_method: "PUT",
      upload_headers: { "Content-Type": "application/pdf", "Content-Length": "2048" },
      expires_in: 900,
    });
    expect(up.upload_url.startsWith(`${base}/v1/uploads/`)).toBe(true);
    // Not listed nor counted before completion.
    expect((await api("GET", `/v1/med/cases/${kase.id}/evidence`)).body.data).toEqual([]);

    const stored = await put(up.upload_url, bytes, up.upload_headers);
    expect(stored.status).toBe(200);
    expect(stored.body.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    const onDisk = join(h.storageDir, "med-evidence", a.accountId, up.id);
    expect(existsSync(onDisk)).toBe(true);
    expect(new Uint8Array(readFileSync(onDisk))).toEqual(bytes);
    expect(readdirSync(join(h.storageDir, "med-evidence", a.accountId)).some((f) => f.endsWith(".tmp"))).toBe(false);
    expect((await api("GET", `/v1/med/cases/${kase.id}`)).body.evidence_count).toBe(0);

    h.clock.advance(30);
    const done = await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`);
    expect(done.status).toBe(200);
    expect(Object.keys(done.body).sort()).toEqual(EVIDENCE_KEYS);
    expect(done.body).toMatchObject({
      id: up.id,
      object: "med_case_evidence",
      file_name: "receipt.pdf",
      file_size: 2048,
      mime_type: "application/pdf",
      uploaded_by: "merchant",
      created_at: "2026-11-20T12:00:00.000Z",
      uploaded_at: "2026-11-20T12:00:30.000Z",
    });
    expect((await api("GET", `/v1/med/cases/${kase.id}`)).body.evidence_count).toBe(1);

    const again = await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(up.id);
    expect((await api("GET", `/v1/med/cases/${kase.id}`)).body.evidence_count).toBe(1);

    const listed = await api("GET", `/v1/med/cases/${kase.id}/evidence`);
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.body).sort()).toEqual(["data", "object"]);
    expect(listed.body.data.map((e: any) => e.id)).toEqual([up.id]);

    const view = await fetch(listed.body.data[0].view_url);
    expect(view.status).toBe(200);
    expect(view.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await view.arrayBuffer())).toEqual(bytes);

    // A confirmed file cannot be overwritten through its old URL.
    expect((await put(up.upload_url, pdfBytes(2048), up.upload_headers)).status).toBe(409);
  });

  test("the list shows only confirmed files, newest first", async () => {
    const kase = await newCase();
    const ids: string[] = [];
    for (const [name, type] of [
      ["one.png", "image/png"],
      ["two.jpg", "image/jpeg"],
      ["three.gif", "image/gif"],
    ]) {
      const up = await requestUpload(kase.id, { file_name: name, file_size: 16, mime_type: type });
      expect((await put(up.upload_url, pdfBytes(16), up.upload_headers)).status).toBe(200);
      if (name !== "three.gif")
        expect((await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`)).status).toBe(200);
      ids.push(up.id);
      h.clock.advance(5);
    }
    const listed = await api("GET", `/v1/med/cases/${kase.id}/evidence`);
    expect(listed.body.data.map((e: any) => e.file_name)).toEqual(["two.jpg", "one.png"]);
    expect((await api("GET", `/v1/med/cases/${kase.id}`)).body.evidence_count).toBe(2);
  });

  test("a 10 MB file goes through", async () => {
    const kase = await newCase();
    const size = 10 * 1024 * 1024;
    const up = await requestUpload(kase.id, { file_size: size });
    expect((await put(up.upload_url, pdfBytes(size), up.upload_headers)).status).toBe(200);
    expect((await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`)).status).toBe(200);
  });
});

describe("completion failures", () => {
  test("complete before the PUT is 409 EVIDENCE_NOT_UPLOADED and nothing is counted", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 100 });
    const res = await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: "conflict_error", code: "EVIDENCE_NOT_UPLOADED" });
    expect((await api("GET", `/v1/med/cases/${kase.id}`)).body.evidence_count).toBe(0);
  });

  test("a PUT after the URL expired is refused and complete says EVIDENCE_NOT_UPLOADED", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 100 });
    h.clock.advance(901);
    const res = await put(up.upload_url, pdfBytes(100), up.upload_headers);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("upload_url_expired");
    const done = await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`);
    expect(done.status).toBe(409);
    expect(done.body.error.code).toBe("EVIDENCE_NOT_UPLOADED");
  });

  test("a file uploaded in time but completed after expiry is not confirmed", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 100 });
    h.clock.advance(899);
    expect((await put(up.upload_url, pdfBytes(100), up.upload_headers)).status).toBe(200);
    h.clock.advance(2);
    const done = await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`);
    expect(done.status).toBe(409);
    expect(done.body.error.code).toBe("EVIDENCE_NOT_UPLOADED");
    expect((await api("GET", `/v1/med/cases/${kase.id}/evidence`)).body.data).toEqual([]);
  });

  test("a stored size different from the declared one is 409 EVIDENCE_SIZE_MISMATCH", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 100 });
    expect((await put(up.upload_url, pdfBytes(90), { "Content-Type": "application/pdf" })).status).toBe(200);
    const done = await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`);
    expect(done.status).toBe(409);
    expect(done.body.error).toMatchObject({ type: "conflict_error", code: "EVIDENCE_SIZE_MISMATCH" });
    expect((await api("GET", `/v1/med/cases/${kase.id}`)).body.evidence_count).toBe(0);
    // Re-sending the right bytes to the same (still valid) URL fixes it.
    expect((await put(up.upload_url, pdfBytes(100), up.upload_headers)).status).toBe(200);
    expect((await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`)).status).toBe(200);
  });

  test("another account cannot complete or list our evidence", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 10 });
    await put(up.upload_url, pdfBytes(10), up.upload_headers);
    expect(
      (await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`, undefined, other.testKey)).status,
    ).toBe(404);
    expect((await api("GET", `/v1/med/cases/${kase.id}/evidence`, undefined, other.testKey)).status).toBe(404);
    expect(
      (await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`, undefined, a.liveKey)).status,
    ).toBe(404);
    const wrongCase = await newCase();
    expect((await api("POST", `/v1/med/cases/${wrongCase.id}/evidence/${up.id}/complete`)).status).toBe(404);
  });
});

describe("upload URL security", () => {
  test("a PUT carrying apikey or Authorization is refused and stores nothing", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 50 });
    for (const extra of [{ apikey: a.testKey }, { Authorization: `Bearer ${a.testKey}` }]) {
      const res = await put(up.upload_url, pdfBytes(50), { ...up.upload_headers, ...extra });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("invalid_request_error");
      expect(res.body.request_id).toMatch(/^req_/);
    }
    expect((await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`)).body.error.code).toBe(
      "EVIDENCE_NOT_UPLOADED",
    );
  });

  test("a Content-Type other than the signed one is refused", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 50 });
    const res = await put(up.upload_url, pdfBytes(50), { "Content-Type": "image/png" });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
    const none = await put(up.upload_url, pdfBytes(50), {});
    expect(none.status).toBe(415);
  });

  test("a tampered signature, expiry or id is refused", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 50 });
    const url = new URL(up.upload_url);
    const sig = url.searchParams.get("signature")!;
    const variants: string[] = [];
    const flip = new URL(url);
    flip.searchParams.set("signature", (sig[0] === "a" ? "b" : "a") + sig.slice(1));
    variants.push(flip.toString());
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    variants.push(later.toString());
    const noSig = new URL(url);
    noSig.searchParams.delete("signature");
    variants.push(noSig.toString());
    const otherUp = await requestUpload(kase.id, { file_size: 50 });
    variants.push(up.upload_url.replace(up.id, otherUp.id));
    for (const v of variants) {
      const res = await put(v, pdfBytes(50), up.upload_headers);
      expect(res.status).toBe(403);
      expect(res.body.error.type).toBe("permission_error");
    }
  });

  test("view links expire after 5 minutes and are bound to their file", async () => {
    const kase = await newCase();
    const up = await requestUpload(kase.id, { file_size: 20 });
    await put(up.upload_url, pdfBytes(20), up.upload_headers);
    const done = await api("POST", `/v1/med/cases/${kase.id}/evidence/${up.id}/complete`);
    const viewUrl: string = done.body.view_url;
    h.clock.advance(299);
    expect((await fetch(viewUrl)).status).toBe(200);
    h.clock.advance(2);
    const expired = await fetch(viewUrl);
    expect(expired.status).toBe(403);
    const unsigned = await fetch(viewUrl.split("?")[0]!);
    expect(unsigned.status).toBe(403);
  });
});

describe("upload request validation", () => {
  test("name, exact size, type and the 10 MB limit are checked", async () => {
    const kase = await newCase();
    const cases: [Record<string, unknown>, string][] = [
      [{ file_name: "a.txt", file_size: 10, mime_type: "text/plain" }, "mime_type"],
      [{ file_name: "a.svg", file_size: 10, mime_type: "image/svg+xml" }, "mime_type"],
      [{ file_name: "big.pdf", file_size: 10 * 1024 * 1024 + 1, mime_type: "application/pdf" }, "file_size"],
      [{ file_name: "empty.pdf", file_size: 0, mime_type: "application/pdf" }, "file_size"],
      [{ file_name: "a.pdf", file_size: "10", mime_type: "application/pdf" }, "file_size"],
      [{ file_name: "a.pdf", file_size: 10.5, mime_type: "application/pdf" }, "file_size"],
      [{ file_name: "../etc/passwd", file_size: 10, mime_type: "application/pdf" }, "file_name"],
      [{ file_name: "", file_size: 10, mime_type: "application/pdf" }, "file_name"],
      [{ file_size: 10, mime_type: "application/pdf" }, "file_name"],
      [{ file_name: "a.pdf", file_size: 10, mime_type: "application/pdf", sha: "x" }, "sha"],
    ];
    for (const [body, param] of cases) {
      const res = await api("POST", `/v1/med/cases/${kase.id}/evidence`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
    for (const type of ["image/png", "image/jpeg", "image/webp", "image/gif", "application/pdf"])
      expect(
        (await api("POST", `/v1/med/cases/${kase.id}/evidence`, { file_name: "f", file_size: 1, mime_type: type }))
          .status,
      ).toBe(201);
  });

  test("a final case accepts no more evidence", async () => {
    const kase = await newCase();
    await api("POST", `/v1/med/cases/${kase.id}/accept`);
    const res = await api("POST", `/v1/med/cases/${kase.id}/evidence`, {
      file_name: "a.pdf",
      file_size: 10,
      mime_type: "application/pdf",
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_state");
  });

  test("unavailable document storage answers 503 service_unavailable", async () => {
    const broken = medHarness({ storageDir: "/dev/null/cofre-evidence" });
    const b = await seedMerchant(broken);
    const c = await paidCharge(broken, b, 1_000);
    const kase = await openMed(broken, b, c);
    const res = await broken.call("POST", `/v1/med/cases/${kase.id}/evidence`, {
      key: b.testKey,
      body: { file_name: "a.pdf", file_size: 10, mime_type: "application/pdf" },
    });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ type: "api_error", code: "service_unavailable" });
  });
});
