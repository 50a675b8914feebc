/**
 * Members and roles on the Developers page in Chromium (issue 15): an OWNER re-roles a member
 * with the row's select and removes one through the confirmation, the removed member's open
 * dashboard falls back to the login form; an ADMIN gets no control on an OWNER's row; the last
 * OWNER's removal is refused and the refusal shown. Two tabs serve the file (the member's and the
 * acting user's), each emptied before it signs in as someone else (`signInAgain`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import { addMember, loginToken, type Member } from "../auth/support";
import { servedHarness, signIn, signInAgain, visit, type Tab } from "./browser-support";

let h: Harness;
let base: string;
let a: SeededAccount;
let dev: Member;
let admin: Member;
/** The acting user's tab, and the tab of a member watching from elsewhere. */
const tabs: { acting?: Tab; other?: Tab } = {};

const membersOf = async () =>
  (await h.call("GET", "/v1/account/members", { bearer: await loginToken(h, a.email, a.password) })).body.data as {
    id: string;
    email: string;
    role: string;
  }[];

/** Tab `which` signed in through the login form as `m` (a fresh context the first time, then emptied and reused). */
async function as(which: "acting" | "other", m: { email: string; password: string }): Promise<Tab> {
  const tab = tabs[which];
  tabs[which] = tab ? await signInAgain(tab, base, m.email, m.password) : await signIn(base, m.email, m.password);
  return tabs[which]!;
}

beforeAll(async () => {
  ({ h, base } = servedHarness());
  a = await h.seedAccount({ name: "Padaria dos Membros" });
  const owner = await loginToken(h, a.email, a.password);
  dev = await addMember(h, owner, "DEVELOPER");
  admin = await addMember(h, owner, "ADMIN");
}, 60_000);

afterAll(async () => {
  for (const tab of Object.values(tabs)) await tab?.context.close();
  await h?.app.stop(true);
});

describe("members and roles in the browser", () => {
  test("an OWNER changes a DEVELOPER to VIEWER with the row's role select", async () => {
    const { page, errors } = await as("acting", a);
    await visit(page, base, "#/developers", `table.members tr[data-id="${dev.id}"] select`);
    await page.selectOption(`table.members tr[data-id="${dev.id}"] select`, "VIEWER");
    await page.waitForSelector("p.notice >> text=Papel alterado.");
    expect((await membersOf()).find((m) => m.id === dev.id)!.role).toBe("VIEWER");
    expect(await page.inputValue(`table.members tr[data-id="${dev.id}"] select`)).toBe("VIEWER");
    expect(errors).toEqual([]);
  }, 60_000);

  test("an ADMIN sees no role select nor remove button on the OWNER's row, and cannot offer OWNER to others", async () => {
    const { page } = await as("acting", admin);
    await visit(page, base, "#/developers", `table.members tr[data-id="${dev.id}"] select`);
    expect(
      await page
        .locator(`table.members tr[data-id="${a.userId}"] select, table.members tr[data-id="${a.userId}"] button`)
        .count(),
    ).toBe(0);
    // Roles by their pt-BR labels (labels.tsx), the code on hover and as the option's value.
    expect(await page.textContent(`table.members tr[data-id="${a.userId}"] td.role`)).toBe("Proprietário");
    expect(await page.getAttribute(`table.members tr[data-id="${a.userId}"] td.role span`, "title")).toBe("OWNER");
    const options = await page
      .locator(`table.members tr[data-id="${dev.id}"] select option`)
      .evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual([
      ["VIEWER", "Leitor"],
      ["DEVELOPER", "Desenvolvedor"],
      ["ADMIN", "Administrador"],
    ]);
  }, 60_000);

  test("an OWNER removes a member after the confirmation; the member's open dashboard is signed out at once", async () => {
    const member = await as("other", dev);
    const { page, errors } = await as("acting", a);
    const asked: string[] = [];
    const listen = (d: { message(): string }) => void asked.push(d.message());
    page.on("dialog", listen);
    try {
      await visit(page, base, "#/developers", `table.members tr[data-id="${dev.id}"] button`);
      await page.click(`table.members tr[data-id="${dev.id}"] button >> text=Remover`);
      await page.waitForSelector(`table.members tr[data-id="${dev.id}"]`, { state: "detached" });
    } finally {
      page.off("dialog", listen);
    }
    expect(asked).toEqual([`Remover o membro ${dev.email}?`]);
    expect((await membersOf()).map((m) => m.id)).toEqual([a.userId, admin.id]);
    await member.page.reload();
    await member.page.waitForSelector('input[name="password"]');
    expect(await member.page.locator('[data-testid="account-name"]').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);

  test("the last OWNER removing themself is refused and the page shows last_owner", async () => {
    const { page } = await as("acting", a);
    await visit(page, base, "#/developers", `table.members tr[data-id="${a.userId}"] button`);
    await page.click(`table.members tr[data-id="${a.userId}"] button >> text=Remover`);
    await page.waitForSelector("p.error >> text=last_owner");
    expect((await membersOf()).find((m) => m.id === a.userId)!.role).toBe("OWNER");
  }, 60_000);
});
